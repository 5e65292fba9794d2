import { PROBLEM_TYPES, type ProblemCode } from '../../api/problem-types.js';

/** The problem one item of a bulk answer carries: what the single operation would have answered for it. */
export const bulkProblem = (code: ProblemCode, detail: string) => ({
  type: `/problems/${code}`,
  title: PROBLEM_TYPES[code].title,
  status: PROBLEM_TYPES[code].status,
  detail,
});
