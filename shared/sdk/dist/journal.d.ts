/** The journal format version every line carries (journalapi.Version). */
export declare const journalVersion = 1;
/** The journal path of child name's k-th invocation under parent (journalapi.ChildPath). */
export declare function childPath(parent: string, name: string, k: number): string;
