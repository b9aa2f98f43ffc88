// The loader entry (`@stratoscli/stratos/loader`): Stratos runs
//   node <root>/node_modules/@stratoscli/stratos/dist/loader.js <compiled entry>
// to read a workflow's contract without calling run. It writes exactly one
// JSON document to file descriptor 3, never to stdout: importing the module
// runs its top-level code, whose console output must not corrupt the result.
// The document is a DefinitionDescription, or {"error":{code,message,stack?}}.
import { writeSync } from "node:fs";
import { describeDefinition } from "./describe.js";
import { errorText, importDefinition } from "./definition.js";
import { StratosError } from "./errors.js";
const resultFd = 3;
async function load(entry) {
    if (entry === undefined || entry === "") {
        return failure("usage", "usage: node loader.js <compiled workflow entry .js>");
    }
    let definition;
    try {
        definition = await importDefinition(entry);
    }
    catch (err) {
        if (err instanceof StratosError) {
            return failure(err.code, err.message, err.cause);
        }
        return failure("definition_load_failed", `loading ${entry} failed: ${errorText(err)}`, err);
    }
    try {
        return describeDefinition(definition);
    }
    catch (err) {
        return failure("schema_conversion_failed", `converting the schemas of ${entry} to JSON Schema failed: ${errorText(err)}`, err);
    }
}
function failure(code, message, cause) {
    const stack = cause instanceof Error ? cause.stack : undefined;
    return { error: stack === undefined ? { code, message } : { code, message, stack } };
}
// writeAll writes the whole buffer: writeSync may write less than asked.
function writeAll(fd, data) {
    for (let off = 0; off < data.length;) {
        off += writeSync(fd, data, off, data.length - off);
    }
}
const result = await load(process.argv[2]);
const data = Buffer.from(JSON.stringify(result) + "\n");
try {
    writeAll(resultFd, data);
}
catch {
    // Run by hand, without fd 3: print the result where a person can see it.
    writeAll(1, data);
}
// Exit now: timers or sockets that the module's top-level code opened must
// not keep the loader alive.
process.exit("error" in result ? 1 : 0);
