/// The object a linked product's entry point returned (`ck_products.h`: a retained reference, or
/// NULL when the product is not linked), as `T`.
func linkedProduct<T>(_ entry: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
    guard let entry else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(entry).takeRetainedValue() as? T
}
