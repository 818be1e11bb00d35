// The doctor's network steps for a URL target, each on its own so a failure names its layer: the
// name resolves (DNS), a TCP connection opens, TLS verifies (https), each with the cause and a hint.

import { lookup } from 'node:dns/promises';
import { isIP, connect as connectTcp } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { Checklist } from './checklist.ts';

/** How long each network step waits. */
const STEP_TIMEOUT_MS = 5000;

/** Runs DNS, TCP and (for https) TLS for `url`; resolves false after the first failure. */
export async function checkNetwork(url: URL, list: Checklist): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let address = host;
  if (isIP(host) === 0) {
    try {
      const addresses = await lookup(host, { all: true });
      address = addresses[0]!.address;
      list.ok('dns', `${host} resolves to ${addresses.map((entry) => entry.address).join(', ')}`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      list.fail(
        'dns',
        `${host} does not resolve (${code})`,
        code === 'ENOTFOUND'
          ? 'check the host name in the URL for typos; the name does not exist'
          : 'the resolver did not answer: check your network and DNS settings, or use an IP address',
      );
      return false;
    }
  } else list.ok('dns', `${host} is an IP address (no lookup)`);
  const tcp = await probe(() => connectTcp({ host: address, port }));
  if (tcp !== undefined) {
    list.fail('tcp', `cannot connect to ${address}:${port} (${tcp.code})`, tcpHint(tcp.code, port));
    return false;
  }
  list.ok('tcp', `${address}:${port} accepts connections`);
  if (url.protocol !== 'https:') return true;
  const tls = await probe(
    () => connectTls({ host: address, port, servername: isIP(host) === 0 ? host : undefined }),
    'secureConnect',
  );
  if (tls !== undefined) {
    list.fail('tls', `TLS to ${host}:${port} failed (${tls.code}: ${tls.message})`, tlsHint(tls.code));
    return false;
  }
  list.ok('tls', `the certificate of ${host} verifies`);
  return true;
}

/** Opens a socket and closes it: undefined when it connected, else the error's code and message. */
function probe(
  open: () => import('node:net').Socket,
  event = 'connect',
): Promise<{ code: string; message: string } | undefined> {
  return new Promise((resolve) => {
    const socket = open();
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ code: 'ETIMEDOUT', message: `no answer within ${STEP_TIMEOUT_MS / 1000} s` });
    }, STEP_TIMEOUT_MS);
    socket.once(event, () => {
      clearTimeout(timer);
      socket.end();
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ code: error.code ?? 'error', message: error.message });
    });
  });
}

function tcpHint(code: string, port: number): string {
  if (code === 'ECONNREFUSED')
    return `nothing listens on port ${port}: start the server, or check the port in the URL`;
  if (code === 'ETIMEDOUT')
    return 'the host does not answer: a firewall may drop the connection, or the address is wrong';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return 'no route to the host: check your network or VPN';
  return 'check the host and port in the URL';
}

function tlsHint(code: string): string {
  if (
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN' ||
    code === 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'
  )
    return 'the certificate is not signed by a CA Node trusts: add your CA with NODE_EXTRA_CA_CERTS=<file.pem>';
  if (code === 'CERT_HAS_EXPIRED') return 'the server certificate has expired: renew it';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return 'the certificate is for another host name: use the name it was issued for';
  if (code === 'EPROTO' || code === 'ECONNRESET')
    return 'the port may not speak TLS: try http:// instead of https://';
  return 'check the server certificate and the URL scheme';
}
