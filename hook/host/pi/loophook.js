// loophook for Pi, written by `loophook install --host pi`: a run ends only when loophook lets it.
// session_start: asks `loophook session-start --protocol pi` and queues the answer's message for
// the model. agent_before_settle: asks `loophook stop --protocol pi`; told to go on, it appends the
// answer's message as a custom message and asks Pi for one more model request. Whatever goes
// wrong (loophook missing, failing, silent past its time, an answer that does not read), the run
// ends as Pi would end it, and a line says why. `loophook uninstall --host pi` removes this file.
import { spawn } from "node:child_process";

const LOOPHOOK = "/abs/path/loophook";
const STOP = [LOOPHOOK, "stop", "--protocol", "pi"];
const SESSION_START = [LOOPHOOK, "session-start", "--protocol", "pi"];
// A bare name is loophook from PATH, as a project's extension (committed, for every teammate) runs
// it: where PATH has none, a stop says nothing and a session's start says so, once.
const FROM_PATH = !/[\\/]/.test(LOOPHOOK);
const MISSING = "loophook: loophook is not on PATH on this machine, so the loop hooks this project registers do nothing here: install loophook to have a loop held to its criteria and checks";
// Pi waits for a handler as long as it takes: these are loophook's limits. A stop may run the
// loop's checks, for minutes; a session's start reads files.
const STOP_TIMEOUT_MS = 600000;
const SESSION_START_TIMEOUT_MS = 60000;
const TYPE = "loophook";

function run(argv, input, timeoutMs) {
  return new Promise((resolve) => {
    let out = "", err = "", done = false, missing = false, timer, child;
    const finish = (failure) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ out, err, failure, missing });
    };
    try {
      child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      finish(`cannot run ${argv[0]}: ${e.message}`);
      return;
    }
    // Past the limit, give up without waiting for whatever the command left holding its output.
    timer = setTimeout(() => {
      try { child.kill("SIGTERM"); } catch {}
      setTimeout(() => { try { child.kill("SIGKILL"); } catch {} }, 5000).unref();
      for (const s of [child.stdin, child.stdout, child.stderr]) s.destroy();
      finish(`no answer in ${timeoutMs / 1000} s`);
    }, timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (d) => { out += d; });
    child.stderr.setEncoding("utf8").on("data", (d) => { err += d; });
    child.on("error", (e) => {
      missing = e.code === "ENOENT";
      finish(`cannot run ${argv[0]}: ${e.message}`);
    });
    child.on("close", (code, sig) => finish(code === 0 ? null : sig ? `killed by ${sig}` : `exit ${code}`));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(input));
  });
}

function tell(ctx, text, level) {
  try {
    if (ctx && ctx.hasUI) { ctx.ui.notify(text, level); return; }
  } catch {}
  process.stderr.write(text + "\n");
}

// loophook's answer, one JSON object; {} (let it stop) when it failed, which the person is told.
async function ask(argv, input, timeoutMs, ctx) {
  const r = await run(argv, input, timeoutMs);
  if (r.missing && FROM_PATH) {
    if (argv === SESSION_START) tell(ctx, MISSING, "info");
    return {};
  }
  let answer;
  try { answer = r.failure ? undefined : JSON.parse(r.out); } catch { answer = undefined; }
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) {
    tell(ctx, `loophook: ${r.failure || "no JSON object on stdout"} ${r.err.trim().slice(-500)}`.trim(), "error");
    return {};
  }
  if (typeof answer.systemMessage === "string" && answer.systemMessage) tell(ctx, answer.systemMessage, "info");
  return answer;
}

function text(content) {
  if (typeof content === "string") return content;
  return (content || []).filter((c) => c && c.type === "text").map((c) => c.text).join("\n");
}

// session: the session's id and file; the file is absent with --no-session.
function session(ctx) {
  const m = ctx.sessionManager;
  return { session_id: m.getSessionId(), transcript_path: m.getSessionFile() };
}

export default function (pi) {
  pi.on("session_start", async (event, ctx) => {
    try {
      const answer = await ask(SESSION_START, {
        hook_event_name: "session_start",
        ...session(ctx),
        cwd: ctx.cwd,
        source: event.reason,
      }, SESSION_START_TIMEOUT_MS, ctx);
      if (typeof answer.message === "string" && answer.message.trim()) {
        pi.sendMessage({ customType: TYPE + "-context", content: answer.message, display: false }, { deliverAs: "nextTurn" });
      }
    } catch (e) {
      tell(ctx, `loophook: ${e && e.message ? e.message : e}`, "error");
    }
  });

  pi.on("agent_before_settle", async (event, ctx) => {
    try {
      // A failed request (outcome "error") would fail again, and Pi obeys continue even then, with
      // no cap: let it stop, and do not ask.
      if (event.outcome !== "completed") return;
      const entries = Array.isArray(event.entries) ? event.entries : [];
      // Another copy of this extension (user and project scope) has answered this stop already.
      if (entries.some((e) => e && e.type === "custom_message" && e.customType === TYPE)) return;
      const messages = (event.context && event.context.contextMessages) || [];
      const last = messages.findLast((m) => m.role === "assistant");
      // What set this run going: the person's message, or this extension's continuation.
      const prompt = messages.findLast((m) => m.role === "user" || (m.role === "custom" && m.customType === TYPE));
      const answer = await ask(STOP, {
        hook_event_name: "agent_before_settle",
        ...session(ctx),
        cwd: ctx.cwd,
        stop_hook_active: prompt !== undefined && prompt.role === "custom",
        last_assistant_message: last ? text(last.content) : "",
        timestamp: last ? last.timestamp : undefined,
      }, STOP_TIMEOUT_MS, ctx);
      if (answer.continue !== true || typeof answer.message !== "string" || !answer.message.trim()) return;
      return {
        entries: [...entries, { type: "custom_message", customType: TYPE, content: answer.message, display: true }],
        continue: true,
      };
    } catch (e) {
      tell(ctx, `loophook: ${e && e.message ? e.message : e}`, "error");
    }
  });
}
