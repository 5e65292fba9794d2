import { App, Stack, Validations } from 'aws-cdk-lib';
import { DomainName } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import { FAMILIES, FAMILY_IDS, familySpec, tokenFamilyOf, type FamilyId } from '../functions/core/platform/families.js';
import { ApiStack } from './api-stack.js';
import { DataStack } from './data-stack.js';
import { readStageConfig } from './stage.js';
import { WorkersStack } from './workers-stack.js';
import { ObservabilityStack } from './observability-stack.js';

/** The families a family links to: the one whose tokens it takes, its successor when it is deprecated, and any it links to (portal v2's invite pages). */
const relatedFamilies = (family: FamilyId): FamilyId[] =>
  [
    ...new Set([tokenFamilyOf(family), familySpec(family).deprecation?.successor as FamilyId | undefined, ...((familySpec(family).links ?? []) as FamilyId[])]),
  ].filter((f): f is FamilyId => !!f && f !== family);

/** The families in an order that builds each after those it links to. */
function buildOrder(): FamilyId[] {
  const order: FamilyId[] = [];
  const visit = (family: FamilyId) => {
    if (order.includes(family)) return;
    relatedFamilies(family).forEach(visit);
    order.push(family);
  };
  FAMILY_IDS.forEach(visit);
  return order;
}

/** Builds the whole app: the shared data stack and one stack per API family, checked by cdk-nag. */
export function buildApp(app: App = new App()) {
  // Say it explicitly: the family stacks import the table from the data stack, and that link must hold.
  app.node.setContext('@aws-cdk/core:defaultCrossStackReferences', 'strong');
  const config = readStageConfig(app.node);
  const prefix = `Agency-${config.stage}`;
  const data = new DataStack(app, `${prefix}-Data`, { config });

  let domainName: DomainName | undefined;
  if (config.domain) {
    const edge = new Stack(app, `${prefix}-Domain`);
    domainName = new DomainName(edge, 'DomainName', {
      domainName: config.domain.name,
      certificate: Certificate.fromCertificateArn(edge, 'Certificate', config.domain.certificateArn),
    });
  }

  // Family stacks name the documents bucket rather than import it; they must deploy after it exists.
  // A family is built after the families it links to; without a custom domain it gets their URLs.
  const built = new Map<FamilyId, ApiStack>();
  const apis = buildOrder().map((family) => {
    const related = domainName ? [] : relatedFamilies(family);
    const stack = new ApiStack(app, `${prefix}-${FAMILIES[family].stackName}`, {
      family,
      config,
      table: data.table,
      domainName,
      familyUrls: Object.fromEntries(related.map((other) => [other, built.get(other)!.api.apiEndpoint])),
    });
    built.set(family, stack);
    return stack;
  });
  for (const api of apis) api.addStackDependency(data);
  const workers = new WorkersStack(app, `${prefix}-Workers`, {
    config,
    table: data.table,
    queues: data.queues,
    relayFailures: data.relayFailures,
  });

  const observability = new ObservabilityStack(app, `${prefix}-Observability`, {
    config,
    apis,
    table: data.table,
    queues: data.queues,
    workers: workers.functions,
  });

  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, data, apis, workers, observability };
}
