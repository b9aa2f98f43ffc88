// The contents of the prompt files an execute names, for the journal's
// input hash. The agent host reads a prompt, system prompt or template
// given as { file } or { template } itself, so the execute's input holds
// only the path: without the contents in the hash, a resumed run would
// answer a call whose prompt file was edited with the old prompt's result.
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { inputHash } from "./journal.js";
/** The largest prompt file the host reads (prompt.MaxFileBytes); a larger one fails its call there. */
const maxPromptFileBytes = 4 << 20;
/**
 * The hash of every prompt file named in values (objects whose one member
 * is a string file or template, at any depth), by path relative to dir,
 * or undefined when they name none: an input without prompt files hashes
 * as it always did. A file that cannot be read hashes as why, so a call
 * that failed on it runs again once it can be read. @internal
 */
export function promptFilesDigest(dir, values) {
    const paths = new Set();
    for (const v of values) {
        collect(v, paths, 0);
    }
    if (paths.size === 0) {
        return undefined;
    }
    const files = {};
    for (const p of paths) {
        files[p] = fileDigest(isAbsolute(p) ? p : join(dir, p));
    }
    return inputHash(files);
}
// collect adds the paths of the prompt sources in v. The depth bound
// keeps a cyclic or absurdly deep value from exhausting the stack: such a
// value cannot have been sent as JSON anyway.
function collect(v, paths, depth) {
    if (v === null || typeof v !== "object" || depth > 32) {
        return;
    }
    if (Array.isArray(v)) {
        for (const x of v) {
            collect(x, paths, depth + 1);
        }
        return;
    }
    const keys = Object.keys(v);
    const source = v;
    if (keys.length === 1 && (keys[0] === "file" || keys[0] === "template")) {
        const path = source.file ?? source.template;
        if (typeof path === "string" && path !== "") {
            paths.add(path);
        }
        return;
    }
    for (const k of keys) {
        collect(v[k], paths, depth + 1);
    }
}
// fileDigest is the hex SHA-256 of a regular file of at most
// maxPromptFileBytes, else a word for why it has none. Opened without
// blocking and checked after opening: a FIFO put in its place must not
// hang the run, and the host refuses anything but a regular file.
function fileDigest(path) {
    let fd;
    try {
        fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    }
    catch (err) {
        return `unreadable: ${err.code ?? "error"}`;
    }
    try {
        const st = fstatSync(fd);
        if (!st.isFile()) {
            return "not a regular file";
        }
        if (st.size > maxPromptFileBytes) {
            return `over ${maxPromptFileBytes} bytes`;
        }
        const buf = Buffer.allocUnsafe(st.size + 1);
        let n = 0;
        for (let got = -1; got !== 0 && n < buf.length; n += got) {
            got = readSync(fd, buf, n, buf.length - n, null);
        }
        return n > maxPromptFileBytes ? `over ${maxPromptFileBytes} bytes` : createHash("sha256").update(buf.subarray(0, n)).digest("hex");
    }
    catch (err) {
        return `unreadable: ${err.code ?? "error"}`;
    }
    finally {
        closeSync(fd);
    }
}
