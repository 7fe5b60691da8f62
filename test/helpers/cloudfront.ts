// A stand-in for the CloudFront API on 127.0.0.1 (no emulator exists): CreateInvalidation, GetInvalidation and
// GetDistributionConfig (an S3 origin with the origin path given) answered
// the way the real service answers them (status codes, headers, XML bodies, its error codes), recording every request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const API = '/2020-05-31';
const XMLNS = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The SigV4 Authorization header, to check which credentials signed the request. */
  authorization: string;
  body: string;
}

export interface RecordedInvalidation {
  distribution: string;
  id: string;
  paths: string[];
  callerReference: string;
  /** GetInvalidation answers so far. */
  polls: number;
}

export interface StandInOptions {
  /** Distributions that exist; any other ID gets NoSuchDistribution (404). */
  distributions?: string[];
  /** Distributions that exist but the caller may not touch: AccessDenied (403). */
  denied?: string[];
  /** Answer this many requests with Throttling (400) before serving any. Infinity throttles everything. */
  throttle?: number;
  /** GetInvalidation says InProgress this many times, then Completed. */
  pollsInProgress?: number;
  /** The origin path of each distribution's S3 origin (GetDistributionConfig); default none. */
  originPaths?: Record<string, string>;
}

export interface CloudFrontStandIn {
  endpoint: string;
  /** Invalidation requests (create and get). */
  requests: RecordedRequest[];
  /** GetDistributionConfig requests, apart: reads that change nothing. */
  configReads: RecordedRequest[];
  invalidations: RecordedInvalidation[];
  /** Changes the behaviour for the requests to come. */
  set(options: StandInOptions): void;
  /** Forgets what was recorded. */
  reset(): void;
  close(): Promise<void>;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

function invalidationXml(invalidation: RecordedInvalidation, status: string): string {
  const items = invalidation.paths.map((path) => `<Path>${escapeXml(path)}</Path>`).join('');
  return (
    `<?xml version="1.0"?>\n<Invalidation xmlns="${XMLNS}"><Id>${invalidation.id}</Id><Status>${status}</Status>` +
    `<CreateTime>2026-01-01T00:00:00.000Z</CreateTime><InvalidationBatch><Paths><Quantity>${invalidation.paths.length}</Quantity>` +
    `<Items>${items}</Items></Paths><CallerReference>${escapeXml(invalidation.callerReference)}</CallerReference>` +
    '</InvalidationBatch></Invalidation>'
  );
}

/** A distribution whose default behaviour serves one S3 origin, with the origin path given ('' for none). */
function distributionConfigXml(originPath: string): string {
  return (
    `<?xml version="1.0"?>\n<DistributionConfig xmlns="${XMLNS}"><CallerReference>stand-in</CallerReference>` +
    '<Origins><Quantity>1</Quantity><Items><Origin><Id>site-bucket</Id><DomainName>site.s3.amazonaws.com</DomainName>' +
    `<OriginPath>${escapeXml(originPath)}</OriginPath><S3OriginConfig><OriginAccessIdentity></OriginAccessIdentity></S3OriginConfig>` +
    '</Origin></Items></Origins><DefaultCacheBehavior><TargetOriginId>site-bucket</TargetOriginId>' +
    '<ViewerProtocolPolicy>redirect-to-https</ViewerProtocolPolicy></DefaultCacheBehavior><Comment></Comment>' +
    '<Enabled>true</Enabled></DistributionConfig>'
  );
}

function errorXml(code: string, message: string, requestId: string): string {
  return (
    `<?xml version="1.0"?>\n<ErrorResponse xmlns="${XMLNS}"><Error><Type>Sender</Type><Code>${code}</Code>` +
    `<Message>${escapeXml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`
  );
}

export async function startCloudFrontStandIn(initial: StandInOptions = {}): Promise<CloudFrontStandIn> {
  let options: Required<StandInOptions> = {
    distributions: [],
    denied: [],
    throttle: 0,
    pollsInProgress: 0,
    originPaths: {},
    ...initial,
  };
  const requests: RecordedRequest[] = [];
  const configReads: RecordedRequest[] = [];
  const invalidations: RecordedInvalidation[] = [];
  let throttled = 0;
  let counter = 0;
  // IDs stay unique across reset(), as the service's are.
  let created = 0;

  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const path = (req.url ?? '/').split('?')[0]!;
      const recorded = { method, path, authorization: String(req.headers.authorization ?? ''), body };
      counter += 1;
      const requestId = `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
      const send = (status: number, xml: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'text/xml', 'x-amzn-requestid': requestId, ...headers });
        res.end(xml);
      };
      const fail = (status: number, code: string, message: string) => send(status, errorXml(code, message, requestId));

      const config = new RegExp(`^${API}/distribution/([^/]+)/config$`).exec(path);
      if (config && method === 'GET') {
        configReads.push(recorded);
        const id = decodeURIComponent(config[1]!);
        if (options.denied.includes(id)) {
          fail(403, 'AccessDenied', `User is not authorized to perform: cloudfront:GetDistributionConfig on ${id}`);
        } else if (!options.distributions.includes(id)) {
          fail(404, 'NoSuchDistribution', 'The specified distribution does not exist.');
        } else {
          send(200, distributionConfigXml(options.originPaths[id] ?? ''), { etag: 'E2CONFIGETAG' });
        }
        return;
      }
      requests.push(recorded);

      const create = new RegExp(`^${API}/distribution/([^/]+)/invalidation$`).exec(path);
      const get = new RegExp(`^${API}/distribution/([^/]+)/invalidation/([^/]+)$`).exec(path);
      const distribution = decodeURIComponent((create ?? get)?.[1] ?? '');
      if (!((create && method === 'POST') || (get && method === 'GET'))) {
        fail(404, 'NotFound', `The stand-in does not answer ${method} ${path}.`);
        return;
      }
      if (throttled < options.throttle) {
        throttled += 1;
        fail(400, 'Throttling', 'Rate exceeded');
        return;
      }
      if (options.denied.includes(distribution)) {
        const action = create ? 'CreateInvalidation' : 'GetInvalidation';
        fail(
          403,
          'AccessDenied',
          `User: arn:aws:iam::123456789012:user/deployer is not authorized to perform: cloudfront:${action} on resource: ` +
            `arn:aws:cloudfront::123456789012:distribution/${distribution} because no identity-based policy allows the cloudfront:${action} action`,
        );
        return;
      }
      if (!options.distributions.includes(distribution)) {
        fail(404, 'NoSuchDistribution', 'The specified distribution does not exist.');
        return;
      }
      if (create) {
        const paths = [...body.matchAll(/<Path>([\s\S]*?)<\/Path>/g)].map((match) => unescapeXml(match[1]!));
        const quantity = Number(/<Quantity>(\d+)<\/Quantity>/.exec(body)?.[1]);
        const callerReference = unescapeXml(/<CallerReference>([\s\S]*?)<\/CallerReference>/.exec(body)?.[1] ?? '');
        if (
          !callerReference ||
          quantity !== paths.length ||
          paths.length === 0 ||
          paths.some((p) => !p.startsWith('/'))
        ) {
          fail(400, 'InvalidArgument', 'Your request contains one or more invalid invalidation paths.');
          return;
        }
        // The same caller reference again: the service answers with the invalidation it made the first time.
        let invalidation = invalidations.find(
          (i) => i.distribution === distribution && i.callerReference === callerReference,
        );
        if (invalidation && invalidation.paths.join('\n') !== paths.join('\n')) {
          fail(409, 'InvalidationBatchAlreadyExists', 'The caller reference is already in use for another batch.');
          return;
        }
        if (!invalidation) {
          created += 1;
          invalidation = {
            distribution,
            id: `I${String(created).padStart(13, '0')}`,
            paths,
            callerReference,
            polls: 0,
          };
          invalidations.push(invalidation);
        }
        send(201, invalidationXml(invalidation, 'InProgress'), {
          location: `https://cloudfront.amazonaws.com${API}/distribution/${distribution}/invalidation/${invalidation.id}`,
        });
        return;
      }
      const invalidation = invalidations.find((i) => i.distribution === distribution && i.id === get![2]);
      if (!invalidation) {
        fail(404, 'NoSuchInvalidation', 'The specified invalidation does not exist.');
        return;
      }
      invalidation.polls += 1;
      send(
        200,
        invalidationXml(invalidation, invalidation.polls > options.pollsInProgress ? 'Completed' : 'InProgress'),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    configReads,
    invalidations,
    set(next) {
      options = { ...options, ...next };
      throttled = 0;
    },
    reset() {
      requests.length = 0;
      configReads.length = 0;
      invalidations.length = 0;
      throttled = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
