// A TCP port free at this moment, for a server a script or test is about to start: two runs on one
// machine (two clones, a developer and CI, the bench and a test) never share a port by accident.
import net from 'node:net';

/** @param {string} [host] the address the server will listen on ('0.0.0.0' for all) */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}
