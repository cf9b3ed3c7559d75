// Types for packages that ship none; only what this project calls.
declare module "@11ty/eleventy-plugin-rss" {
  export function convertHtmlToAbsoluteUrls(html: string, base: string): Promise<string>;
  export function dateToRfc822(date: Date): string;
}
