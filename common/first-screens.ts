/**
 * The chunks of the web app's first screens, by the paths that open them: written by the build
 * (scripts/web-chunks.ts) beside index.html, read by the server (server/http/web-app.ts), which
 * names them in index.html for those paths (<link rel="modulepreload">) so the browser fetches
 * them with the entry instead of once the entry has run.
 */
export const FIRST_SCREENS_FILE = '.vite/first-screens.json';

export interface FirstScreensFile {
  screens: Array<{
    name: string;
    /** A regular expression's source, matched against the path. */
    paths: string;
    /** Chunk files under the web root that index.html does not load already. */
    files: string[];
  }>;
}
