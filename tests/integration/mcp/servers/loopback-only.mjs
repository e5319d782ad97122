// Preloaded (node --import) into a reference server that listens with app.listen(PORT), which binds every
// interface: a listen given only a port binds 127.0.0.1 instead, so a test's server is never reachable from outside.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [port, host] = args;
  if ((typeof port === "number" || typeof port === "string") && typeof host !== "string") {
    return listen.call(this, port, "127.0.0.1", ...args.slice(1));
  }
  return listen.apply(this, args);
};
