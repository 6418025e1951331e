// History <-> the proto JSON the Temporal CLI and Web UI export, as @temporalio/common's
// historyToJSON / historyFromJSON do it, but with the protobufjs that @temporalio/proto's types
// were built with. In this install @temporalio/common and @temporalio/proto each carry their own
// copy of protobufjs 8 (the root has 7 for gRPC and OpenTelemetry), and the SDK's functions mix
// the two: both throw "type must be a Type". Resolving protojson from @temporalio/proto's own
// location works whether npm nests or hoists it.
import type { History } from '@temporalio/common/lib/proto-utils';
import type * as protoTypes from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';
import { createRequire } from 'node:module';

type Protojson = {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
};

const here = createRequire(import.meta.url);
// The CommonJS module itself (an ESM namespace import would hide its root behind `default`).
const proto = here('@temporalio/proto') as typeof protoTypes;
const fromProto = createRequire(here.resolve('@temporalio/proto'));
const protojson = fromProto('protobufjs/ext/protojson') as Protojson;
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType('temporal.api.history.v1.History');

export function historyToJson(history: History): unknown {
  return protojson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history));
}

/** A recorded file back to the History the replay worker takes; fields a newer server added are ignored. */
export function historyFromJson(json: unknown): History {
  const loaded = protojson.fromJson(historyType, json, { ignoreUnknownFields: true });
  if (!loaded) throw new TypeError('not a history');
  return loaded as History;
}
