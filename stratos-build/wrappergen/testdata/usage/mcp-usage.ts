// A workflow's use of a generated MCP wrapper, type-checked by
// TestMCPWrapperCompilesWithTsc. Each `@ts-expect-error` line must fail to
// compile (tsc reports an unused directive otherwise).
import connectIssueTracker, { type IssueTrackerServer, type SearchIssuesInput } from "./generated/mcp/issue_tracker.js";
import {
  McpResourceTooLargeError,
  McpToolError,
  resourceLinks,
  type McpPrompt,
  type McpResource,
  type McpResourceTemplate,
  type McpToolResult,
} from "@stratoscli/stratos";

export async function useTools(): Promise<number> {
  const tracker: IssueTrackerServer = await connectIssueTracker();
  const sum: number = (await tracker.add({ a: 1, b: 2 })).sum;
  const echoed: McpToolResult = await tracker.echo({ text: "hi" });
  const text: string = echoed.text;
  const query: SearchIssuesInput = { query: "bug", state: "open", labels: ["p1"], author: null, since: { date: "2026-01-01" }, sort: "created" };
  const found = await tracker.searchIssues(query);
  const title: string | undefined = found.items[0]?.title;
  const [a, b] = await Promise.all([tracker.slow({ millis: 1 }), tracker.slow({ millis: 2, steps: 2 })]);
  try {
    await tracker.fail({ message: "boom" });
  } catch (err) {
    if (err instanceof McpToolError) {
      const tool: string = err.tool;
      void tool;
    }
  }

  // @ts-expect-error b is required
  await tracker.add({ a: 1 });
  // @ts-expect-error a is a number
  await tracker.add({ a: "1", b: 2 });
  // @ts-expect-error unknown input fields are rejected
  await tracker.echo({ text: "x", loud: true });
  // @ts-expect-error state is one of open, closed, all
  await tracker.searchIssues({ query: "x", state: "stale" });
  // @ts-expect-error the structured output has no such field
  void (await tracker.add({ a: 1, b: 2 })).total;
  // @ts-expect-error there is no such tool
  await tracker.deleteEverything({});

  // The server's resources and prompts, and a tool result's links.
  const resources: McpResource[] = await tracker.resources();
  const templates: McpResourceTemplate[] = await tracker.resourceTemplates();
  const readme: string = (await tracker.readResource(resources[0]!.uri, { maxBytes: 1024 })).text;
  for (const link of resourceLinks(echoed)) {
    const part = (await tracker.readResource(link)).contents[0];
    const bytes: string | undefined = part?.blob ?? part?.text;
    void bytes;
  }
  const prompts: McpPrompt[] = await tracker.prompts();
  const greeting: string = (await tracker.getPrompt(prompts[0]!.name, { name: "Ada" })).text;
  try {
    await tracker.readResource("fake://big", { maxBytes: 1 });
  } catch (err) {
    if (err instanceof McpResourceTooLargeError) {
      const limit: number = err.limit;
      void limit;
    }
  }
  // @ts-expect-error prompt arguments are strings
  await tracker.getPrompt("greet", { name: 1 });
  // @ts-expect-error readResource needs a URI or a link
  await tracker.readResource(42);

  // Log messages, subscriptions and list changes.
  const watched: IssueTrackerServer = await connectIssueTracker({ logLevel: "warning", onResourceListChanged: () => {} });
  await watched.subscribe(resources[0]!.uri, (uri: string) => void uri);
  await watched.unsubscribe(resources[0]!.uri);
  // @ts-expect-error logLevel is one of the protocol's levels
  await connectIssueTracker({ logLevel: "loud" });
  // @ts-expect-error subscribe needs onUpdated
  await watched.subscribe("fake://readme");

  await tracker.close();
  void templates;
  return readme.length + greeting.length + sum + text.length + (title?.length ?? 0) + a.text.length + b.content.length;
}
