// The digest of an execute's prompt files: a resumed run must not answer a
// call whose prompt file changed from the journal, so the journal's input
// hash takes the files' contents, which the execute's input only names.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promptFilesDigest } from "../dist/prompt-files.js";

function workflowDir(t) {
  const dir = mkdtempSync(join(tmpdir(), "prompt-files-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("the digest of prompt files", () => {
  it("is undefined for an input that names none", (t) => {
    const dir = workflowDir(t);
    assert.equal(promptFilesDigest(dir, ["just text", { configId: "review" }, undefined, { file: 3 }, { file: "a.md", other: 1 }]), undefined);
  });

  it("follows the contents of the files the input names", (t) => {
    const dir = workflowDir(t);
    writeFileSync(join(dir, "a.md"), "review the diff");
    const first = promptFilesDigest(dir, [{ file: "a.md" }]);
    assert.match(first, /^[0-9a-f]{64}$/);
    assert.equal(promptFilesDigest(dir, [{ file: "a.md" }]), first, "the same contents");
    writeFileSync(join(dir, "a.md"), "review the tests");
    assert.notEqual(promptFilesDigest(dir, [{ file: "a.md" }]), first, "edited contents");
    writeFileSync(join(dir, "a.md"), "review the diff");
    assert.equal(promptFilesDigest(dir, [{ file: "a.md" }]), first, "the first contents again");
    assert.equal(promptFilesDigest(dir, [{ file: join(dir, "a.md") }]) === first, false, "another path is another name");
  });

  it("finds system prompts and templates at any depth of a configuration", (t) => {
    const dir = workflowDir(t);
    writeFileSync(join(dir, "system.md"), "you review code");
    writeFileSync(join(dir, "ask.hbs"), "review {{what}}");
    const config = { harness: "test", systemPrompt: { file: "system.md" }, agents: { review: { prompt: { template: "ask.hbs" } } } };
    const before = promptFilesDigest(dir, [config]);
    writeFileSync(join(dir, "ask.hbs"), "review {{what}} twice");
    assert.notEqual(promptFilesDigest(dir, [config]), before, "the template changed");
    writeFileSync(join(dir, "ask.hbs"), "review {{what}}");
    writeFileSync(join(dir, "system.md"), "you write code");
    assert.notEqual(promptFilesDigest(dir, [config]), before, "the system prompt changed");
  });

  it("names a file it cannot read instead of failing or waiting", (t) => {
    const dir = workflowDir(t);
    const missing = promptFilesDigest(dir, [{ file: "missing.md" }]);
    assert.match(missing, /^[0-9a-f]{64}$/);
    writeFileSync(join(dir, "missing.md"), "");
    assert.notEqual(promptFilesDigest(dir, [{ file: "missing.md" }]), missing, "once it exists");
    execFileSync("mkfifo", [join(dir, "fifo")]);
    assert.match(promptFilesDigest(dir, [{ file: "fifo" }]), /^[0-9a-f]{64}$/, "a FIFO nobody writes to");
    writeFileSync(join(dir, "big.md"), Buffer.alloc((4 << 20) + 1, 97));
    assert.match(promptFilesDigest(dir, [{ file: "big.md" }]), /^[0-9a-f]{64}$/, "a file over the host's limit");
  });
});
