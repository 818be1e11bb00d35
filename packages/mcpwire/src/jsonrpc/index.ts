// Public entry for the JSON-RPC layer.
export * from './message.ts';
export * from './rpc-error.ts';
export * from './codec.ts';
export * from './errors.ts';
export { Peer, type PeerHandler, type PeerOptions } from './peer.ts';
