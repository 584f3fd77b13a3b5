/// A single style for every feature, or rules where the first match wins.
public enum Styling: Sendable {
  case single(Style)
  case rules([Rule])
}
