/** Builds the web app into dist/web with Vite, in a process of its own, and stamps it with its sources' hash. */
export function buildWeb(): Promise<void>;
