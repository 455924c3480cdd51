// Backend tests of claimed ops that Tessera deliberately does not run, each with the
// reason that goes into docs/conformance.md. Keep every rule narrow and its reason true.
export const exclusions = [
  // { match: /^test_xxx/, reason: '...' },
];

/** The exclusion reason for a test name, or null. */
export function exclusionReason(testName) {
  for (const rule of exclusions) {
    if (rule.match.test(testName)) return rule.reason;
  }
  return null;
}
