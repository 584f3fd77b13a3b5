/// How much the report says about labels and annotation text.
public enum ReportDetail: String, Sendable, CaseIterable {
  /// Every label candidate and annotation text, one entry each (the default:
  /// what a CI diff needs).
  case full
  /// Counts only: the `entries` of `labels` and the `texts` of annotation
  /// layers are left out.
  case counts
}
