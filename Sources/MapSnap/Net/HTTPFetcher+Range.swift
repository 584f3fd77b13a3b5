#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HTTPFetcher {
  /// `length` bytes of `url` from `offset` by an HTTP range request (a
  /// remote PMTiles archive): fewer only at the resource's end. Each range
  /// is cached under its URL and range. A server that answers with the
  /// whole resource (200) is an error naming that, unless the resource is
  /// at most `wholeBodyForRangeBytes`: then it is cached whole and every
  /// range of it is served from that copy.
  package func getRange(_ url: String, offset: UInt64, length: Int) throws(HTTPError) -> [UInt8] {
    try rangeResponse(url, offset: offset, length: length).body
  }

  /// `getRange`, with the response's validator and the resource's size.
  package func rangeResponse(_ url: String, offset: UInt64, length: Int) throws(HTTPError) -> HTTPResponse {
    guard length > 0 else {
      return HTTPResponse(url: url, status: 206, body: [], contentType: nil, etag: nil, totalSize: nil, origin: .cache)
    }
    let (last, overflow) = offset.addingReportingOverflow(UInt64(length) - 1)
    let range = offset...(overflow ? UInt64.max : last)
    return try logged(url, range: range) { () throws(HTTPError) in
      // A whole copy (a plain GET, or a server that ignored ranges) serves any range.
      if let whole = cache?.load(url: url, range: nil), whole.status == 200,
        options.offline || whole.isFresh(at: Int64(time(nil)))
      {
        return try Self.slice(served(whole, origin: options.offline ? .offlineCache : .cache), range, url: url)
      }
      let response = try fetch(url, range: range)
      return response.status == 200 ? try Self.slice(response, range, url: url) : response
    }
  }

  /// `range` of a whole body, as a 206 would hold it.
  static func slice(_ whole: HTTPResponse, _ range: ClosedRange<UInt64>, url: String) throws(HTTPError) -> HTTPResponse {
    let count = UInt64(whole.body.count)
    guard range.lowerBound <= count else { throw .status(url: url, code: 416) }
    var part = whole
    part.status = 206
    let end = range.upperBound >= count ? count : range.upperBound + 1
    part.body = Array(whole.body[Int(range.lowerBound)..<Int(end)])
    part.totalSize = count
    return part
  }
}
