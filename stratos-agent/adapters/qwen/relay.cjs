// Stratos's tool hook relay for Qwen Code: the PreToolUse, PostToolUse and
// PostToolUseFailure command hooks of a Stratos session run it. It sends
// the hook's input to the session's hook endpoint inside the agent host
// (address and bearer token in its environment) and prints the answer.
// When it gets no answer it blocks the call: a PreToolUse hook exits 2
// (Qwen Code does not run the call), a PostToolUse hook withholds the
// result (continue false); an exit code of 1 would let the call through.
'use strict';
const http = require('node:http');

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', send);

function send() {
  let url;
  try {
    url = new URL(process.env.STRATOS_ACP_HOOK_URL || '');
  } catch (e) {
    return fail('no hook endpoint in the environment');
  }
  const req = http.request(url, {
    method: 'POST',
    headers: {
      Authorization: 'Bearer ' + (process.env.STRATOS_ACP_HOOK_TOKEN || ''),
      'Content-Type': 'application/json',
    },
  }, (res) => {
    let out = '';
    res.setEncoding('utf8');
    res.on('data', (d) => { out += d; });
    res.on('end', () => {
      if (res.statusCode !== 200) {
        return fail('the hook endpoint answered ' + res.statusCode + ': ' + out.trim());
      }
      process.stdout.write(out, () => process.exit(0));
    });
    res.on('error', (e) => fail(e.message));
  });
  req.on('error', (e) => fail(e.message));
  req.end(input);
}

function fail(why) {
  const reason = 'Stratos could not run the tool hook: ' + why;
  let event = '';
  try {
    event = JSON.parse(input).hook_event_name || '';
  } catch (e) {
    // an unreadable input blocks like any other failure
  }
  if (event.startsWith('Post')) {
    process.stdout.write(JSON.stringify({ continue: false, stopReason: reason }), () => process.exit(0));
    return;
  }
  process.stderr.write(reason + '\n', () => process.exit(2));
}
