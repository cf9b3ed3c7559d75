// Shell words: how a command given as separate words becomes the one command line a step runs.

/** A word as the shell reads it back unchanged: bare when that is safe, else in single quotes. */
export const shellQuote = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * A command line run in a new network namespace: the lab sets `rdma system netns exclusive`, so
 * no RDMA device is visible there.
 */
export const withoutRdmaDevice = (line: string): string => `unshare --net -- bash -c ${shellQuote(line)}`;
