// The WebSocket to the table: hello with the session, states in, moves out; when the socket
// drops, reconnect with a growing wait (0.5 s doubling to 10 s, with jitter) and say hello again
// with the same session, which resumes.
import { at } from "./root.js";

const PING_MS = 25000;

export class Connection {
  /** `handlers`: onState(view, texts, prefs), onAck(ref, warn), onRefused(ref, text), onError(text),
   * onClosed(text, rematch), onReaction(seat, reaction),
   * onStatus("open" | "connecting" | "retry", seconds). */
  constructor(session, handlers) {
    this.session = session;
    this.handlers = handlers;
    this.ref = 0;
    this.attempt = 0;
    this.socket = null;
    this.stopped = false;
    this.timer = null;
    this.pinger = null;
  }

  /** Open the socket (again). */
  connect() {
    if (this.stopped) return;
    this.handlers.onStatus("connecting");
    const url = at("ws");
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", session: this.session }));
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", () => this.dropped(socket));
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    switch (frame.type) {
      case "state":
        this.attempt = 0;
        this.handlers.onStatus("open");
        this.handlers.onState(frame.view, frame.texts, frame.prefs);
        break;
      case "reaction":
        this.handlers.onReaction?.(frame.seat, frame.reaction);
        break;
      case "ack":
        this.handlers.onAck(frame.ref, frame.warn);
        break;
      case "refused":
        this.handlers.onRefused(frame.ref, frame.text);
        break;
      case "error":
        this.stopped = true;
        this.handlers.onError(frame.text);
        break;
      case "closed":
        this.stopped = true;
        this.handlers.onClosed(frame.text, frame.rematch);
        break;
      default:
        break;
    }
  }

  dropped(socket) {
    if (socket !== this.socket) return;
    clearInterval(this.pinger);
    this.socket = null;
    if (this.stopped) return;
    const wait = Math.min(10, 0.5 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    this.handlers.onStatus("retry", Math.max(1, Math.round(wait)));
    this.timer = setTimeout(() => this.connect(), wait * 1000);
  }

  /** Send a frame when the socket is open; false when it is not. */
  send(frame) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** Send a frame that expects `ack` or `refused`: its `ref`, or null when not connected. */
  request(frame) {
    this.ref += 1;
    return this.send({ ...frame, ref: this.ref }) ? this.ref : null;
  }

  /** Reconnect now (a tap on "retry"). */
  retry() {
    this.stopped = false;
    this.attempt = 0;
    clearTimeout(this.timer);
    if (!this.socket) this.connect();
  }
}
