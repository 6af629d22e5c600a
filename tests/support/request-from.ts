// One HTTP request sent from a loopback address the test chooses (node's
// `localAddress`), so the server takes it for a client of its own: how the
// security tests are many clients, with the server's real per-address limits
// and signals, from one machine.
import { request as httpRequest } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function requestFrom(
  from: string,
  site: URL,
  path: string,
  options: { method: 'GET' | 'POST'; headers: Record<string, string | number>; body: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: site.hostname, port: site.port, path, method: options.method, localAddress: from, headers: options.headers },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
