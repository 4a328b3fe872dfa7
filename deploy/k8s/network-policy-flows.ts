// Which connections a set of NetworkPolicies allows, evaluated as Kubernetes does, for
// check-manifests.ts: a pod that no policy of a direction selects is open in that direction; one
// that some policy selects gets only what a rule of those policies allows. Peers are pods (their
// namespace's labels and their own) or addresses outside the cluster (matched by ipBlock only;
// a pod is never matched by an ipBlock here, which is what the policies rely on).
import { BlockList, isIPv6 } from 'node:net';

export type Labels = Record<string, string>;
export type Peer = { namespace: Labels; pod: Labels } | { ip: string };
export interface Flow {
  port: number;
  protocol?: 'TCP' | 'UDP';
}

interface Selector {
  matchLabels?: Labels;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}
interface PolicyPeer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface Rule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: Array<{ port?: number; protocol?: string }>;
}
export interface NetworkPolicy {
  metadata: { name: string };
  spec: { podSelector: Selector; policyTypes?: string[]; ingress?: Rule[]; egress?: Rule[] };
}

/** A label selector matches (an empty selector matches everything). */
export function selects(selector: Selector, labels: Labels): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = e.key in labels;
    const ok =
      e.operator === 'In'
        ? has && (e.values ?? []).includes(labels[e.key]!)
        : e.operator === 'NotIn'
          ? !has || !(e.values ?? []).includes(labels[e.key]!)
          : e.operator === 'Exists'
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
}

function inBlock(ip: string, block: { cidr: string; except?: string[] }): boolean {
  // An IPv4 address never matches an IPv6 block (BlockList would match it as IPv4-mapped).
  if (isIPv6(ip) !== isIPv6(block.cidr.split('/')[0]!)) return false;
  const list = (cidrs: string[]) => {
    const b = new BlockList();
    for (const c of cidrs) {
      const [net, bits] = c.split('/');
      b.addSubnet(net!, Number(bits), isIPv6(net!) ? 'ipv6' : 'ipv4');
    }
    return b;
  };
  const type = isIPv6(ip) ? 'ipv6' : 'ipv4';
  return list([block.cidr]).check(ip, type) && !list(block.except ?? []).check(ip, type);
}

function peerMatches(p: PolicyPeer, peer: Peer, policyNamespace: Labels): boolean {
  if ('ip' in peer) return p.ipBlock !== undefined && inBlock(peer.ip, p.ipBlock);
  if (p.ipBlock) return false;
  const namespaceOk = p.namespaceSelector
    ? selects(p.namespaceSelector, peer.namespace)
    : peer.namespace['kubernetes.io/metadata.name'] === policyNamespace['kubernetes.io/metadata.name'];
  return namespaceOk && (!p.podSelector || selects(p.podSelector, peer.pod));
}

function ruleAllows(rule: Rule, peers: PolicyPeer[] | undefined, peer: Peer, flow: Flow, namespace: Labels): boolean {
  const protocol = flow.protocol ?? 'TCP';
  const portOk = !rule.ports?.length || rule.ports.some((p) => (p.protocol ?? 'TCP') === protocol && (p.port === undefined || p.port === flow.port));
  return portOk && (!peers?.length || peers.some((p) => peerMatches(p, peer, namespace)));
}

function allows(direction: 'Ingress' | 'Egress', policies: NetworkPolicy[], namespace: Labels, pod: Labels, peer: Peer, flow: Flow): boolean {
  const applying = policies.filter((p) => selects(p.spec.podSelector, pod) && (p.spec.policyTypes ?? ['Ingress']).includes(direction));
  if (applying.length === 0) return true;
  return applying.some((p) =>
    (direction === 'Ingress' ? (p.spec.ingress ?? []) : (p.spec.egress ?? [])).some((r) =>
      ruleAllows(r, direction === 'Ingress' ? r.from : r.to, peer, flow, namespace),
    ),
  );
}

/** Whether `from` may open a connection to the pod `pod` (in `namespace`) on `flow`. */
export function allowsIngress(policies: NetworkPolicy[], namespace: Labels, pod: Labels, from: Peer, flow: Flow): boolean {
  return allows('Ingress', policies, namespace, pod, from, flow);
}

/** Whether the pod `pod` (in `namespace`) may open a connection to `to` on `flow`. */
export function allowsEgress(policies: NetworkPolicy[], namespace: Labels, pod: Labels, to: Peer, flow: Flow): boolean {
  return allows('Egress', policies, namespace, pod, to, flow);
}
