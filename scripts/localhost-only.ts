// Preloaded by `npm start`: Eleventy's dev server listens on every interface, and a personal
// preview should not be reachable from the network. Every listen() without a host gets 127.0.0.1.
import net from "node:net";

const HOST = "127.0.0.1";
const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
  const [first, second] = args;
  if (first !== null && typeof first === "object" && !("path" in first) && !("fd" in first)) {
    args[0] = { ...(first as net.ListenOptions), host: HOST };
  } else if ((typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) && typeof second !== "string") {
    args.splice(1, 0, HOST);
  } else if (first === undefined || typeof first === "function") {
    args.unshift(0, HOST);
  }
  return listen.apply(this, args as Parameters<typeof listen>);
} as typeof listen;
