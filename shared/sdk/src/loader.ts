// The loader entry (`@stratoscli/stratos/loader`): Stratos runs
//   node <root>/node_modules/@stratoscli/stratos/dist/loader.js
// to read workflow contracts without calling run. One process loads any
// number of compiled entries, one after the other, so a build of many
// workflows starts node once instead of once per workflow.
//
// Protocol:
//   - stdin: one JSON line, the LoaderInvocation {resultKey, entries};
//   - fd 3: the result channel. For each entry, in order, the loader writes
//     one framed line "stratos-definition <mac> <LoaderReport JSON>\n", where
//     <mac> is the hex HMAC-SHA256 of the JSON under resultKey and the report
//     names its entry by index. The channel is moved out of workflow code's
//     reach before any entry is imported (see takeResultChannel), and the MAC
//     keeps a line that module code writes from passing for a report;
//   - stdout and stderr belong to the modules' top-level code.
// Run by hand with entries as arguments (`node loader.js a.js b.js`), it
// prints the unframed reports on stdout instead.
import { createHmac } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { describeDefinition } from "./describe.js";
import { errorText, importDefinition } from "./definition.js";
import { StratosError } from "./errors.js";
import type { WorkflowDefinition } from "./workflow.js";

const inheritedResultFd = 3;
const framePrefix = "stratos-definition";

/** What Stratos sends on stdin. @internal */
export interface LoaderInvocation {
  /** The per-process secret that keys each report's MAC (hex). */
  resultKey: string;
  /** Compiled entries (absolute paths), loaded in this order. */
  entries: string[];
}

interface LoaderError {
  error: { code: string; message: string; stack?: string };
}

/** One entry's result: a DefinitionDescription or a LoaderError. @internal */
export interface LoaderReport {
  index: number;
  result: object;
}

// Taken before any module is imported: a module replacing JSON.stringify or
// fs.writeSync changes nothing here.
const stringify = JSON.stringify;
const write = writeSync;
const hmac = createHmac;

async function load(entry: string): Promise<object> {
  let definition: WorkflowDefinition;
  try {
    definition = await importDefinition(entry);
  } catch (err) {
    if (err instanceof StratosError) {
      return failure(err.code, err.message, err.cause);
    }
    return failure("definition_load_failed", `loading ${entry} failed: ${errorText(err)}`, err);
  }
  try {
    return describeDefinition(definition);
  } catch (err) {
    return failure("schema_conversion_failed", `converting the schemas of ${entry} to JSON Schema failed: ${errorText(err)}`, err);
  }
}

function failure(code: string, message: string, cause?: unknown): LoaderError {
  const stack = cause instanceof Error ? cause.stack : undefined;
  return { error: stack === undefined ? { code, message } : { code, message, stack } };
}

// writeAll writes the whole buffer: writeSync may write less than asked.
function writeAll(fd: number, data: Buffer): void {
  for (let off = 0; off < data.length; ) {
    off += write(fd, data, off, data.length - off);
  }
}

// takeResultChannel reopens the inherited fd 3 on a descriptor of its own
// (opened close-on-exec, so processes a module starts do not inherit it) and
// closes fd 3. Without /proc, fd 3 stays where it is; the MAC still protects
// the reports.
function takeResultChannel(): number {
  try {
    const fd = openSync(`/proc/self/fd/${inheritedResultFd}`, "w");
    closeSync(inheritedResultFd);
    return fd;
  } catch {
    return inheritedResultFd;
  }
}

// firstLine reads stdin up to its first newline (or its end).
function firstLine(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer): void => {
      text += chunk.toString("utf8");
      const nl = text.indexOf("\n");
      if (nl >= 0) {
        process.stdin.off("data", onData);
        process.stdin.pause();
        resolve(text.slice(0, nl));
      }
    };
    process.stdin.on("data", onData);
    process.stdin.on("end", () => resolve(text));
    process.stdin.on("error", reject);
  });
}

// warmUp imports what every workflow module imports from the SDK (the
// package and the child wrappers' runtime) before the invocation arrives:
// Stratos starts the loader beside the compile that produces the entries, so
// this import happens while tsc runs instead of after it. A failure is left
// for the import of the entry that needs the module to report. When the
// invocation is still not there after the import, it also defines and
// describes a small workflow of its own (warmDescribe).
async function warmUp(invoked: () => boolean): Promise<void> {
  try {
    await Promise.all([import("./index.js"), import("./generated.js")]);
  } catch {
    return; // reported by the entry's own import
  }
  // Let stdin's pending data in first: a loader whose invocation is already
  // waiting (nothing compiles beside it) goes straight to its entries.
  await new Promise((resolve) => setImmediate(resolve));
  if (!invoked()) {
    await warmDescribe();
  }
}

// warmDescribe runs, once, what loading any definition runs: Zod's schema
// constructors (an entry's top-level code), workflow(), and the conversion
// to JSON Schema. Their first run in a process costs several milliseconds
// more than the next ones (a leaf's import and description after tsc took
// 8.8 ms without it, 3.4 ms with it; docs/performance.md); it is paid here,
// while tsc runs. Nothing of it is reported, and a failure changes nothing:
// each entry's own load reports its errors.
async function warmDescribe(): Promise<void> {
  try {
    const [{ z }, { workflow }] = await Promise.all([import("zod"), import("./workflow.js")]);
    describeDefinition(
      workflow({
        input: z.strictObject({ text: z.string().describe("A text."), count: z.number().optional() }),
        output: z.strictObject({ ok: z.boolean().describe("Whether it worked.") }),
        async run() {
          return { ok: true };
        },
      }),
    );
  } catch {
    // each entry's load reports its own errors
  }
}

async function serve(): Promise<number> {
  const channel = takeResultChannel();
  const line = firstLine();
  let invoked = false;
  // The rejection handler also keeps a failed read from counting as
  // unhandled while the warm-up runs: it is awaited, and reported, below.
  line.then(() => (invoked = true), () => {});
  await warmUp(() => invoked);
  const invocation = JSON.parse(await line) as LoaderInvocation;
  const key = Buffer.from(invocation.resultKey, "hex");
  let failures = 0;
  for (const [index, entry] of invocation.entries.entries()) {
    const result = await load(entry);
    if ("error" in result) failures++;
    const json = stringify({ index, result } satisfies LoaderReport);
    const mac = hmac("sha256", key).update(json).digest("hex");
    writeAll(channel, Buffer.from(`${framePrefix} ${mac} ${json}\n`));
  }
  return failures === 0 ? 0 : 1;
}

async function byHand(entries: string[]): Promise<number> {
  let failures = 0;
  for (const [index, entry] of entries.entries()) {
    const result = await load(entry);
    if ("error" in result) failures++;
    writeAll(1, Buffer.from(stringify({ index, result } satisfies LoaderReport) + "\n"));
  }
  return failures === 0 ? 0 : 1;
}

const args = process.argv.slice(2);
const status = await (args.length > 0 ? byHand(args) : serve());
// Exit now: timers or sockets that the modules' top-level code opened must
// not keep the loader alive.
process.exit(status);
