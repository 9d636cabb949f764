import { operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { QueryPlanner, type QueryPlan } from '@apollo/query-planner';
import { parse } from 'graphql';
import { restRoutes } from '../src/rest/routes';
import { readSupergraph } from '../src/supergraph';

/**
 * How the gateway splits a route's operation between the subgraphs: each step is a trip the request waits for.
 * The journal's reads name only the quote service's fields of `me`, which both the user and the quote service
 * answer, so the quote service answers them alone.
 */
let planner: QueryPlanner;
let supergraph: Supergraph;

beforeAll(() => {
  supergraph = Supergraph.build(readSupergraph());
  planner = new QueryPlanner(supergraph);
});

/** The subgraphs a route's operation asks, one entry per fetch, in the plan's order. */
function fetchesOf(method: string, path: string): string[] {
  const route = restRoutes.find((each) => each.method === method && each.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  const plan = planner.buildQueryPlan(operationFromDocument(supergraph.schema, parse(route.operation)));
  const services: string[] = [];
  const walk = (node: QueryPlan['node']) => {
    if (!node) return;
    if (node.kind === 'Fetch') services.push(node.serviceName);
    else if (node.kind === 'Sequence' || node.kind === 'Parallel') node.nodes.forEach(walk);
    else if (node.kind === 'Flatten') walk(node.node);
    else throw new Error(`a plan step this test does not read: ${node.kind}`);
  };
  walk(plan.node);
  return services;
}

describe('query plans of the REST routes', () => {
  it.each([
    ['GET', '/api/quotes/recent'],
    ['GET', '/api/user/analytics'],
    ['GET', '/api/quotes/favorites'],
    ['GET', '/api/user/stats'],
  ])('%s %s is answered by the quote service in one step', (method, path) => {
    expect(fetchesOf(method, path)).toEqual(['quote']);
  });

  it('GET /api/user is answered by the user service in one step', () => {
    expect(fetchesOf('GET', '/api/user')).toEqual(['user']);
  });
});
