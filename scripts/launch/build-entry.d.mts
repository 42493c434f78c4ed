/** Types of build-entry.mjs (plain JavaScript: it runs before any TypeScript loader). */
export declare const REPO_ROOT: string;
export declare const ENTRY_CACHE_DIR: string;
export declare function buildEntry(entry: string, options?: { cacheDir?: string }): Promise<string>;
export declare function markBuildInUse(main: string): Promise<void>;
