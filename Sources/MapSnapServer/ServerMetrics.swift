import Prometheus

/// The server's Prometheus metrics (`GET /metrics`, text format 0.0.4),
/// through swift-prometheus's registry:
///
/// - `mapsnap_requests_total{status}`: responses by status code;
/// - `mapsnap_request_duration_seconds`: the latency of every response, a histogram;
/// - `mapsnap_render_queue_depth` and `mapsnap_render_running`: requests waiting and drawing;
/// - `mapsnap_image_cache_hits_total`, `mapsnap_image_cache_misses_total`,
///   `mapsnap_image_cache_bytes`: the rendered-image cache.
final class ServerMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  let duration: DurationHistogram
  let queued: Gauge
  let running: Gauge
  let cacheHits: Counter
  let cacheMisses: Counter
  let cacheBytes: Gauge
  /// Latency buckets from 5 ms (a cached thumbnail) to 10 s (a queue at its budget).
  static let buckets: [Duration] = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000].map { .milliseconds($0) }

  init() {
    duration = registry.makeDurationHistogram(
      name: "mapsnap_request_duration_seconds", buckets: Self.buckets,
      help: "Time from a request's arrival to its response")
    queued = registry.makeGauge(name: "mapsnap_render_queue_depth", labels: [], help: "Requests waiting for a render thread")
    running = registry.makeGauge(name: "mapsnap_render_running", labels: [], help: "Requests being drawn")
    cacheHits = registry.makeCounter(name: "mapsnap_image_cache_hits_total", labels: [], help: "Responses served from the image cache")
    cacheMisses = registry.makeCounter(name: "mapsnap_image_cache_misses_total", labels: [], help: "Responses drawn")
    cacheBytes = registry.makeGauge(name: "mapsnap_image_cache_bytes", labels: [], help: "Bytes held by the image cache")
  }

  /// Counts one response.
  func record(status: Int, seconds: Double) {
    registry.makeCounter(name: "mapsnap_requests_total", labels: [("status", String(status))], help: "Responses by status code").increment()
    duration.recordNanoseconds(Int64(seconds * 1e9))
  }

  /// The metrics in Prometheus's text format.
  func text(queue: (queued: Int, running: Int), cache: (bytes: Int, entries: Int)) -> [UInt8] {
    queued.record(Double(queue.queued))
    running.record(Double(queue.running))
    cacheBytes.record(Double(cache.bytes))
    var out: [UInt8] = []
    registry.emit(into: &out)
    return out
  }
}
