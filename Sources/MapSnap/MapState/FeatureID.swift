/// A feature's id: the layer's `idField` property, else the source's own id
/// (the GeoJSON `id` member, a graphic's `id`), a string or a number.
/// Ids compare by value (`ScalarKey`'s rule, which floors follow too: `7`
/// equals `"7"` and `"7.0"`; other strings compare as written), so a view
/// annotation, `--fit` or an overlay names a feature whichever of the two
/// its source writes.
public typealias FeatureID = ScalarKey
