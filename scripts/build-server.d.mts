/** Builds the server bundle into `outdir` (dist/server) and answers the path of its main.mjs. */
export function buildServer(outdir?: string): Promise<string>;
/** How Node runs the bundle: `npm start` and the benchmark pass these before its path. */
export const SERVER_NODE_ARGS: string[];
