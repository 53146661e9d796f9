import StoreHost

extension Explorer {
    /// Each failing run shrunk, the shortest kept (the first of equals): shrinking stops at
    /// a local minimum, and another failing run may lead to a smaller one (the jugs'
    /// six-step way rather than their eight-step one). With `--schedules`, the steps and
    /// the schedule are shrunk in turn until neither changes. `tries` counts the runs.
    func shrunkest(_ candidates: [Found], tries shrinkRuns: inout Int) async -> (
        steps: [ExploreStep], failure: ExploreFailure, worldSeed: UInt64, schedule: ScheduleRecord
    )? {
        guard let model = core.current?.model else { return nil }
        var best: (steps: [ExploreStep], failure: ExploreFailure, worldSeed: UInt64, schedule: ScheduleRecord)?
        for candidate in candidates {
            driver.worldSeed = candidate.worldSeed  // shrinking replays the run's world
            driver.schedulePlan = .replaying(candidate.schedule)  // and its schedule
            // A shrinker per schedule: what passed with one may fail with another.
            func shrinkSteps(_ steps: [ExploreStep], failure: ExploreFailure) async -> ([ExploreStep], ExploreFailure) {
                var shrinker = ExploreShrinker { [self] steps in await self.attempt(steps, like: candidate.failure) }
                shrinker.alternatives = simplestSteps
                shrinker.fits = { step in ExploreShrinker.fitsItsParameters(step, in: model) }
                defer { shrinkRuns += shrinker.tries }
                return await shrinker.shrink(steps, failure: failure)
            }
            var (shrunk, failure) = await shrinkSteps(candidate.steps, failure: candidate.failure)
            var schedule = await simplestSchedule(for: &shrunk, failure: &failure, tries: &shrinkRuns)
            // A simpler schedule can let steps go that the first one needed, and the other
            // way round.
            while options.schedules, shrinkRuns < 20_000 {
                let before = (shrunk, schedule)
                (shrunk, failure) = await shrinkSteps(shrunk, failure: failure)
                schedule = await simplestSchedule(for: &shrunk, failure: &failure, tries: &shrinkRuns)
                if before == (shrunk, schedule) { break }
            }
            if best.map({ shrunk.count < $0.steps.count }) ?? true {
                best = (shrunk, failure, candidate.worldSeed, schedule)
            }
        }
        return best
    }

    /// The schedule of the shrunk run `steps`, made as simple as it can be while the run
    /// still fails as `failure` did: answers at once and ties in scheduled order where they
    /// may be, shorter waits where not (`ExploreDriver.simplerSchedules`), until no change
    /// helps. What `steps` took with the schedule it failed with is the start. Empty when
    /// schedules are not explored.
    func simplestSchedule(for steps: inout [ExploreStep], failure: inout ExploreFailure, tries: inout Int) async
        -> ScheduleRecord
    {
        guard options.schedules,
            let taken = try? await driver.run(length: steps.count, keepStates: false, next: Self.replaying(steps))
        else { return ScheduleRecord() }
        tries += 1
        var best = taken.schedule
        var changed = true
        while changed, tries < 20_000 {
            changed = false
            for candidate in ExploreDriver.simplerSchedules(best) {
                driver.schedulePlan = .replaying(candidate)
                tries += 1
                if let found = await attempt(steps, like: failure), found.failure.signature == failure.signature,
                    found.steps.count <= steps.count
                {
                    (steps, failure, best) = (found.steps, found.failure, candidate)
                    changed = true
                    break
                }
            }
        }
        driver.schedulePlan = .replaying(best)
        return best
    }
}
