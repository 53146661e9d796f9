import EmbeddingWorkloads
import Foundation

/// `storesh explore` on a ring buffer in C, in the default mode (determinism checked,
/// guidance on, the model out of storesh's process: in search workers, one per core,
/// decisions 0011 and 0012), in one search worker (`--jobs 1`), and in storesh's process:
/// the figure issue #48 sets a target for. Start-up (`startUp`) is taken off; the best of
/// `rounds`.
func ringFigure(binary: String, startUp: Double, runs ringRuns: Int, rounds: Int) throws -> String {
    var ring: [String] = []
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let modes = [
        ("default (\(min(cores, 8)) search workers)", [String]()), ("--jobs 1", ["--jobs", "1"]),
        ("--in-process --jobs 1", ["--in-process", "--jobs", "1"]),
    ]
    for (label, flags) in modes {
        var best = Double.infinity
        var steps = 0
        for _ in 0..<rounds {
            let run = try ShellWorkloads.exploreRing(runs: ringRuns, storesh: binary, options: flags)
            steps = run.steps
            best = min(best, run.seconds - startUp)
        }
        ring.append(String(format: "%@ %.0f k steps/s", label, Double(steps) / max(best, 1e-6) / 1e3))
    }
    return "storesh explore, ring buffer (C), \(ringRuns) runs: " + ring.joined(separator: "; ")
        + "   target >= 200 k/s in the default mode"
}
