// Stands in for @aws-sdk/middleware-endpoint-discovery in function bundles (see BUNDLE_ALIASES in lib/bundling.ts).
// The DynamoDB client only resolves its discovery settings (and builds an endpoint cache for them); no operation
// of its adds the discovery middleware, so the settings are kept and the cache and middleware left out.
export const NODE_ENDPOINT_DISCOVERY_CONFIG_OPTIONS = {
  environmentVariableSelector: () => undefined,
  configFileSelector: () => undefined,
  default: undefined,
};

export const resolveEndpointDiscoveryConfig = (input, { endpointDiscoveryCommandCtor }) =>
  Object.assign(input, {
    endpointDiscoveryCommandCtor,
    endpointDiscoveryEnabled:
      input.endpointDiscoveryEnabled !== undefined ? () => Promise.resolve(input.endpointDiscoveryEnabled) : input.endpointDiscoveryEnabledProvider,
    isClientEndpointDiscoveryEnabled: input.endpointDiscoveryEnabled !== undefined,
  });

const absent = () => {
  throw new Error('Endpoint discovery is not bundled: no DynamoDB operation this project calls uses it (lib/bundling.ts)');
};
export const endpointDiscoveryMiddlewareOptions = { name: 'endpointDiscoveryMiddleware', step: 'build', tags: ['ENDPOINT_DISCOVERY'], override: true };
export const getEndpointDiscoveryPlugin = absent;
export const getEndpointDiscoveryRequiredPlugin = absent;
export const getEndpointDiscoveryOptionalPlugin = absent;
