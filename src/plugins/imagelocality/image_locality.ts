// ImageLocality prefers nodes that already have the pod's images, weighted by image size and
// discounted when the image is on few nodes (pkg/scheduler/framework/plugins/imagelocality/image_locality.go).
import type { CycleState } from '../../framework/cycle_state.js';
import type { Handle, NodeScore, ScorePlugin } from '../../framework/interfaces.js';
import { MaxNodeScore } from '../../framework/interfaces.js';
import { anyNodeInfoHadImages, type ImageStateSummary, type NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import type { Status } from '../../framework/status.js';
import { ImageLocality as Name } from '../../framework/names.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { ImageNamesSignerName } from '../../framework/signers.js';

export { Name };

const mb = 1024 * 1024;
/** Below this sum of scaled image sizes a node scores 0 (typical small image size). */
const minThreshold = 23 * mb;
/** Per container: at or above this sum a node scores the maximum. */
const maxContainerThreshold = 1000 * mb;

/** Adds ":latest" when the image reference has no tag (a ':' after the last '/'). */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

/** The image's size scaled by the fraction of nodes that have it, against "node heating". */
function scaledImageScore(state: ImageStateSummary, totalNumNodes: number): number {
  return Math.trunc(state.size * (state.numNodes / totalNumNodes));
}

/** Maps the summed image scores into [0, MaxNodeScore] between the thresholds. */
export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = maxContainerThreshold * numContainers;
  let s = sumScores;
  if (s < minThreshold) s = minThreshold;
  else if (s > maxThreshold) s = maxThreshold;
  // `+ 0` turns the -0 of a pod without containers into 0.
  return Math.trunc((MaxNodeScore * (s - minThreshold)) / (maxThreshold - minThreshold)) + 0;
}

function nodeScore(images: readonly string[], nodeInfo: NodeInfo, totalNumNodes: number): number {
  const states = nodeInfo.imageStates;
  let sum = 0;
  for (let i = 0; i < images.length; i++) {
    const state = states.get(images[i]!);
    if (state !== undefined) sum += scaledImageScore(state, totalNumNodes);
  }
  return calculatePriority(sum, images.length);
}

export class ImageLocality implements ScorePlugin, SignPlugin {
  readonly name = Name;

  /** Scores follow the containers' images (image volumes are not part of upstream's signature). */
  signPod(pod: PodInfo): readonly SignFragment[] {
    const names = new Set<string>();
    for (const list of [pod.pod.spec.containers, pod.pod.spec.initContainers]) for (const c of list ?? []) names.add(normalizedImageName(c.image ?? ''));
    return [{ key: ImageNamesSignerName, value: [...names].sort() }];
  }
  // Score runs for one pod over many nodes; the pod's normalized image names are computed once.
  private cachedPod: PodInfo | null = null;
  private cachedImages: string[] = [];

  constructor(private readonly handle: Handle) {}

  score(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number | Status {
    const images = this.podImages(pod);
    const totalNumNodes = this.handle.snapshotSharedLister().nodeInfos().list().length;
    return nodeScore(images, nodeInfo, totalNumNodes);
  }

  /** When none of the nodes reports an image, each scores what an empty sum scores. */
  uniformScore(_state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): number | null {
    // Where no node ever reported images (benchmarks, most simulations) there is nothing to walk.
    if (anyNodeInfoHadImages()) for (let i = 0; i < nodes.length; i++) if (nodes[i]!.hasImages()) return null;
    return calculatePriority(0, this.podImages(pod).length);
  }

  scoreNodes(_state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: NodeScore[]): Status | null {
    const images = this.podImages(pod);
    const totalNumNodes = this.handle.snapshotSharedLister().nodeInfos().list().length;
    // A node without images scores what an empty sum scores; computed once.
    const noImages = calculatePriority(0, images.length);
    for (let i = 0; i < nodes.length; i++) {
      const ni = nodes[i]!;
      out[i]!.score = ni.hasImages() ? nodeScore(images, ni, totalNumNodes) : noImages;
    }
    return null;
  }

  scoreExtensions(): null {
    return null;
  }

  /**
   * Init containers', containers' and image volumes' images, normalized; one entry each (an image
   * volume counts towards the number of images as a container does).
   */
  private podImages(pod: PodInfo): string[] {
    if (this.cachedPod === pod) return this.cachedImages;
    const images: string[] = [];
    for (const c of pod.pod.spec.initContainers ?? []) images.push(normalizedImageName(c.image ?? ''));
    for (const c of pod.pod.spec.containers ?? []) images.push(normalizedImageName(c.image ?? ''));
    // kubernetes-types predates the image volume source (ImageVolume, GA in v1.35).
    for (const v of (pod.pod.spec.volumes ?? []) as { image?: { reference?: string } }[]) {
      if (v.image) images.push(normalizedImageName(v.image.reference ?? ''));
    }
    this.cachedPod = pod;
    this.cachedImages = images;
    return images;
  }
}
