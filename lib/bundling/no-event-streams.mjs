// Stands in for @smithy/core/event-streams in function bundles (see BUNDLE_ALIASES in lib/bundling.ts).
// The SDK imports it only to (de)serialize an event-stream member, and no operation this project calls has one.
const absent = () => {
  throw new Error('Event streams are not bundled: no DynamoDB or SQS operation this project calls uses them (lib/bundling.ts)');
};
export const EventStreamSerde = absent;
export const eventStreamSerdeProvider = absent;
