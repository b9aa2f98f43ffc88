// Direct MCP clients' resources: following a tool result's resource links,
// and the typed error of a read over its limit.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { McpError, McpResourceTooLargeError, isSdkError, resourceLinks } from "../dist/index.js";

describe("resourceLinks", () => {
  const content = [
    { type: "text", text: "Issue 7 is open." },
    { type: "resource_link", uri: "fake://issues/7", name: "issue 7", mimeType: "text/plain" },
    { type: "resource", resource: { uri: "fake://embedded", text: "inline" } },
    { type: "resource_link", name: "no uri" },
    { type: "resource_link", uri: "fake://logo.png", name: "logo" },
  ];

  it("picks the resource links of a tool result, in order", () => {
    const links = resourceLinks({ content, text: "Issue 7 is open." });
    assert.deepEqual(
      links.map((l) => l.uri),
      ["fake://issues/7", "fake://logo.png"],
    );
    assert.equal(links[0].mimeType, "text/plain");
  });

  it("takes the content blocks too", () => {
    assert.deepEqual(
      resourceLinks(content).map((l) => l.name),
      ["issue 7", "logo"],
    );
    assert.deepEqual(resourceLinks([]), []);
  });
});

describe("McpResourceTooLargeError", () => {
  it("names the URI and the limit, with its code", () => {
    const err = new McpResourceTooLargeError("tracker", "fake://readme", 5, "too large", { details: { size: 29 } });
    assert.equal(err.code, "mcp_resource_too_large");
    assert.equal(err.name, "McpResourceTooLargeError");
    assert.equal(err.uri, "fake://readme");
    assert.equal(err.limit, 5);
    assert.deepEqual(err.details, { server: "tracker", size: 29, uri: "fake://readme", limit: 5 });
    assert.ok(err instanceof McpError && isSdkError(err));
  });
});
