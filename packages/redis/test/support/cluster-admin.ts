// Asking a Redis Cluster's nodes directly (the failover tests): one command on one node, and which
// nodes are replicas now.

import { createClient } from 'redis';

/** Runs `command` on the node at `url`; its reply as text. */
export async function ask(url: string, command: readonly string[]): Promise<string> {
  const client = createClient({ url, socket: { reconnectStrategy: false } });
  client.on('error', () => {});
  await client.connect();
  try {
    return String(await client.sendCommand([...command]));
  } finally {
    client.destroy();
  }
}

/** The URLs of the cluster's nodes that are replicas now. */
export async function replicasOf(urls: readonly string[]): Promise<string[]> {
  const replicas: string[] = [];
  for (const url of urls)
    if ((await ask(url, ['INFO', 'replication'])).includes('role:slave')) replicas.push(url);
  return replicas;
}
