// The container's HEALTHCHECK: healthy (exit 0) when the server answers GET /__health with 200 on its port
// (the PORT variable, 3000 by default) within two seconds; unhealthy (exit 1) otherwise.
const port = process.env.PORT || '3000';
try {
  const res = await fetch(`http://127.0.0.1:${port}/__health`, { signal: AbortSignal.timeout(2000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
