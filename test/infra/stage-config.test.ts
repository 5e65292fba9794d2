import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { readStageConfig } from '../../lib/stage.js';
import { buildApp } from '../../lib/app.js';

const newApp = (context: Record<string, unknown> = {}) => new App({ context: { stage: 'test', 'aws:cdk:bundling-stacks': [], ...context } });
const throttlesOf = (context: Record<string, unknown>) =>
  buildApp(newApp(context)).apis.map(
    (stack) => Object.values(Template.fromStack(stack).findResources('AWS::ApiGatewayV2::Stage'))[0]!.Properties.DefaultRouteSettings,
  );

describe("each family's API stage ceiling", () => {
  it('is 1,000 requests a second with bursts of 2,000 unless context says otherwise, on every family', () => {
    const defaults = throttlesOf({});
    expect(defaults.length).toBeGreaterThan(5);
    expect(defaults.every((s) => s.ThrottlingRateLimit === 1000 && s.ThrottlingBurstLimit === 2000)).toBe(true);
    expect(throttlesOf({ apiRateLimit: 50, apiBurstLimit: 80 }).every((s) => s.ThrottlingRateLimit === 50 && s.ThrottlingBurstLimit === 80)).toBe(true);
  });

  it('refuses a limit that is not a positive integer, or a burst below the rate, before anything is built', () => {
    expect(() => readStageConfig(newApp({ apiRateLimit: 'lots' }).node)).toThrow('Context "apiRateLimit" must be a positive integer, got "lots"');
    expect(() => readStageConfig(newApp({ apiBurstLimit: 0 }).node)).toThrow(/apiBurstLimit/);
    expect(() => readStageConfig(newApp({ apiRateLimit: 500, apiBurstLimit: 100 }).node)).toThrow(
      'Context "apiBurstLimit" (100) must be at least "apiRateLimit" (500)',
    );
  });
});
