extension String.UnicodeScalarView {
    /// Appends `scalars` one by one.
    ///
    /// The standard library's `append(contentsOf:)` on a scalar view copies everything the view
    /// holds at each call, so a loop of them costs the square of the text (a card of 320,000
    /// Cyrillic letters took 2.5 s to match a query): appending scalar by scalar grows in place.
    @inlinable
    public mutating func appendScalars(_ scalars: some Sequence<Unicode.Scalar>) {
        for scalar in scalars { append(scalar) }
    }
}
