// Stratos hooks for OpenCode, generated into the isolated configuration of
// one session. It announces every tool call to the agent host's hook
// server on loopback before the call runs (the host learns that the turn
// may have several steps), and, when the author has tool hooks (option
// "after"), forwards the result of every call except OpenCode's own
// structured-output delivery and its unknown-tool placeholder too. It
// applies the answers:
//   before: allow | deny (throw: the call fails with the reason) |
//           modify (arguments replaced in place: OpenCode passes this very
//           object to the tool) | fail (the author hook threw)
//   after:  keep | replace (the output the model reads) | fail
// and keeps the server's secrets out of the environment of the commands
// the agent runs.
// It imports nothing, so OpenCode needs no package install for it.
const skipped = new Set(["StructuredOutput", "invalid"]);

export const StratosHooks = async (_input, options) => {
  const url = options.url;
  const token = options.token;
  // The server's own secrets (the names of the variables holding its
  // password and its configuration, with this plugin's token). Commands
  // the agent runs must not read them.
  const secrets = options.secrets ?? [];
  // OpenCode spawns commands with its own environment plus this output;
  // an undefined value leaves the variable out.
  const shellEnv = async (_input, output) => {
    for (const k of secrets) output.env[k] = undefined;
  };
  if (!url) return { "shell.env": shellEnv };
  const after = options.after === true;
  async function call(path, body) {
    const res = await fetch(url + path, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer " + token },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(3600 * 1000),
    });
    if (!res.ok) throw new Error("Stratos hook server answered HTTP " + res.status);
    return await res.json();
  }
  return {
    "shell.env": shellEnv,
    "tool.execute.before": async (input, output) => {
      const d = await call("/before", { sessionID: input.sessionID, callID: input.callID, tool: input.tool, args: output.args });
      if (d.decision === "deny" || d.decision === "fail") throw new Error(d.reason);
      if (d.decision === "modify") {
        for (const k of Object.keys(output.args)) delete output.args[k];
        Object.assign(output.args, d.args);
      }
    },
    "tool.execute.after": async (input, output) => {
      if (!after || skipped.has(input.tool)) return;
      const mcp = Array.isArray(output.content);
      const body = { sessionID: input.sessionID, callID: input.callID, tool: input.tool, args: input.args, mcp };
      if (mcp) {
        body.content = output.content;
        body.isError = output.isError === true;
      } else {
        body.output = output.output;
        body.metadata = output.metadata;
      }
      const d = await call("/after", body);
      if (d.decision === "fail") throw new Error(d.reason);
      if (d.decision === "replace") {
        if (mcp) {
          output.content = [{ type: "text", text: d.output }];
          output.isError = false;
        } else {
          output.output = d.output;
        }
      }
    },
  };
};
