/** Builds the server bundle into `outdir` (dist/server) and answers the path of its main.mjs. */
export function buildServer(outdir?: string): Promise<string>;
