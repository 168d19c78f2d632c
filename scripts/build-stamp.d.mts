/** The hash of a part's sources (`web`, `server`) in `root`, or undefined when the folder holds no sources of it. */
export function sourcesHash(root: string, part: 'web' | 'server'): string | undefined;
/** The hash a build in `dir` was made from, or undefined. */
export function stampOf(dir: string): string | undefined;
