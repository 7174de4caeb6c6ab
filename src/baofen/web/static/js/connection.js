// One WebSocket to a table (docs/protocol.md), reopened automatically after a drop.
// Events: "status" (detail: connecting | open | closed | replaced | gone), "open" (identify
// again: reclaim or watch), "message" (detail: a server message).

import { applyPatch } from "./patch.js";

const RETRY_SECONDS = [0.5, 1, 2, 4, 8];
const PING_SECONDS = 25;
const CLOSE_REPLACED = 4000;
const CLOSE_UNKNOWN_TABLE = 4404;

export class Connection extends EventTarget {
  constructor(code) {
    super();
    this.code = code;
    this.socket = null;
    this.status = "connecting";
    this.retries = 0;
    this.nextId = 1;
    this.stopped = false;
    this.waiting = new Map();
    this.retryTimer = null;
    this.pinger = null;
    this.version = null;
    this.view = null; // the last whole view (a state message), which a patch changes
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  /** Open the socket (again). */
  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.code)}`);
    this.socket = socket;
    this.setStatus("connecting");
    socket.addEventListener("open", () => {
      this.retries = 0;
      this.version = null;
      this.view = null;
      this.setStatus("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_SECONDS * 1000);
      this.dispatchEvent(new Event("open"));
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      // The view our own action caused carries that action's ack (no ack message follows):
      // taken as the ack it stands for, after the view, as if it had come on its own.
      const ack = message.ack;
      delete message.ack;
      this.receive(message);
      if (ack) this.receive({ type: "ack", ...ack });
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      clearInterval(this.pinger);
      for (const resolve of this.waiting.values()) resolve({ type: "error", code: "closed", message: "connection closed" });
      this.waiting.clear();
      if (event.code === CLOSE_REPLACED) return this.stop("replaced");
      if (event.code === CLOSE_UNKNOWN_TABLE) return this.stop("gone");
      this.setStatus("closed");
      const delay = RETRY_SECONDS[Math.min(this.retries, RETRY_SECONDS.length - 1)];
      this.retries += 1;
      this.retryTimer = setTimeout(() => this.connect(), delay * 1000);
    });
  }

  /** Take one server message: a patch becomes the view it makes; answers resolve requests. */
  receive(message) {
    if (message.type === "patch") {
      // A change of the view before it: without that view, ask for the whole one.
      if (!this.view || this.view.view !== message.since) return this.send({ type: "sync" });
      message = applyPatch(this.view, message);
    }
    if (message.type === "state") {
      this.view = message;
      // Every change reaches every connection, one version at a time: a jump means a state
      // was lost on the way (between cluster nodes), so ask for the whole view again.
      const version = message.table.version;
      if (this.version !== null && version > this.version + 1) this.send({ type: "sync" });
      this.version = version;
    }
    if (message.id !== undefined && message.id !== null && this.waiting.has(message.id)) {
      this.waiting.get(message.id)(message);
      this.waiting.delete(message.id);
    }
    this.dispatchEvent(new CustomEvent("message", { detail: message }));
  }

  /** Reconnect at once if the socket is down (the network came back, the tab is visible). */
  reconnectNow() {
    if (!this.stopped && this.status === "closed") this.connect();
  }

  /** Open a new socket now and drop the old one (the page signed in: the session cookie
   * travels with a WebSocket's handshake only). */
  reopen() {
    if (this.stopped) return;
    const old = this.socket;
    this.connect();
    if (old) old.close();
  }

  /** Give up for good (the seat was taken over elsewhere, or the table does not exist). */
  stop(status) {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pinger);
    this.setStatus(status);
  }

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: status }));
  }

  /** Send a message; returns its id. */
  send(message) {
    const id = message.id ?? this.nextId++;
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ ...message, id }));
    }
    return id;
  }

  /** Send a message and wait for the answer carrying its id (ack, error, checked, …). */
  request(message) {
    return new Promise((resolve) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        resolve({ type: "error", code: "closed", message: "not connected" });
        return;
      }
      const id = this.nextId++;
      this.waiting.set(id, resolve);
      this.send({ ...message, id });
    });
  }
}
