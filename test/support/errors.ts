/** The message of the error `fn` throws; fails the test when it throws none. */
export function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected an error, but none was thrown");
}
