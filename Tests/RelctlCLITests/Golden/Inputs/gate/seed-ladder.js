// The forced-update seed's reference code, as the seed wrote it (shared/reference/seeds: its TypeScript
// `compareVersions` and the three-bucket ladder), with the types dropped so node runs it. The differential test
// (GateSeedDifferentialTests) feeds it generated cases on stdin, one JSON array of
// {"installed", "min", "latest"}, and compares its verdicts with VersionGate's GateLadder and `relctl gate evaluate`.
function compareVersions(a, b) {
  const parse = (v) =>
    v.split('.').map(part => parseInt(part, 10))
      .map(n => (Number.isNaN(n) ? 0 : n));

  const pa = parse(a);
  const pb = parse(b);
  const len = Math.max(pa.length, pb.length);

  for (let i = 0; i < len; i++) {
    const na = pa[i] ?? 0;
    const nb = pb[i] ?? 0;
    if (na < nb) return -1;
    if (na > nb) return 1;
  }
  return 0;
}

function evaluate(currentVersion, config) {
  if (compareVersions(currentVersion, config.minSupportedVersion) < 0) {
    return { status: 'blocked' };
  }
  if (compareVersions(currentVersion, config.latestVersion) < 0) {
    return { status: 'update_available' };
  }
  return { status: 'ok' };
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const cases = JSON.parse(input);
  const verdicts = cases.map(c => evaluate(c.installed, { minSupportedVersion: c.min, latestVersion: c.latest }).status);
  process.stdout.write(JSON.stringify(verdicts));
});
