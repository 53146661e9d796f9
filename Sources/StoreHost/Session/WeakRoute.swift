/// A weak way back to an object that is retained on every action: others hold the route
/// weakly, the object holds the route, and the object itself is never weakly referenced.
/// A weak reference gives an object a side table, and from then on every retain and
/// release of it takes the runtime's slow path — measured at 7% of the shell's time per
/// observed action when the shell core and a worker's stores had one.
///
/// Read `route?.target` in one expression and keep the strong reference it gives: the
/// route lives exactly as long as its target, apart from such a read.
package final class WeakRoute<Target: AnyObject> {
    package unowned let target: Target

    package init(_ target: Target) {
        self.target = target
    }
}
