// The package's root entry (`mcpwire`): the JSON-RPC layer, every MCP wire type, the protocol revisions,
// the transport contract and the in-memory channel pair. Server, client and stdio have their own entries.

export * from './jsonrpc/index.ts';
export * from './protocol/types/index.ts';
export {
  HANDSHAKE_VERSIONS,
  STATELESS_VERSIONS,
  REVISION_FEATURES,
  adaptContentForRevision,
  adaptToolForRevision,
  hasFeature,
  isKnownVersion,
  isStatelessVersion,
  type FeatureSpan,
  type ProtocolVersion,
  type RevisionFeature,
  type ServedEras,
} from './protocol/revisions.ts';
export { CapabilityNotNegotiatedError, ProtocolStateError } from './protocol/capabilities.ts';
export { defineExtension, extensionGate, type Extension } from './protocol/extension.ts';
export {
  describeMethod,
  type CapabilityGate,
  type DescribedParams,
  type DescribedResult,
  type MethodDescription,
  type MethodSpec,
  type ParamRule,
  type Sender,
} from './protocol/method-spec.ts';
export { METHODS, isGateRequired, type Method } from './protocol/methods.ts';
export type { ParamsOf, ResultOf } from './protocol/method-types.ts';
export type { Channel, ChannelInfo, ChannelReceiver, Transport } from './transports/channel.ts';
export { createMemoryPair } from './transports/memory.ts';
export { tapChannel, type ChannelObserver } from './transports/tap.ts';
export { setWireObserver, type WireEvent } from './protocol/wire-observer.ts';
