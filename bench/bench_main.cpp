// The Google Benchmark driver behind `make bench`. Besides the usual console table it writes
// one flat JSON object of named numbers (out/bench/results.json), merged with the objects the
// scenario benchmarks wrote into a parts folder.
//
// Naming rule, so a benchmark's key is visible where it is declared:
//   - a benchmark named `some_key` (or `some_key/ARG`) contributes "some_key" (or
//     "some_key_ARG") = real time per iteration in nanoseconds;
//   - a benchmark named `BM_...` contributes only its user counters, each under its own name;
//   - a benchmark run as repetitions contributes its median (the key has no suffix).
// Repetitions of different benchmarks are interleaved at random (unless the command line says
// otherwise), so load from the rest of the machine spreads over the benchmarks being compared.
#include <benchmark/benchmark.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace {

class CollectingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (run.run_type != Run::RT_Iteration && !median) continue;
      std::string name = run.run_name.function_name;
      // What a benchmark says of where it ran (the churns on the machine's device: its backend).
      if (!run.report_label.empty()) labels[name + "_label"] = run.report_label;
      if (!run.run_name.args.empty()) name += "/" + run.run_name.args;
      if (name.rfind("BM_", 0) == 0) {
        for (const auto& [key, counter] : run.counters) results[key] = counter.value;
        continue;
      }
      for (auto& c : name) c = (c == '/' || c == ':') ? '_' : c;
      double ns = run.GetAdjustedRealTime() * benchmark::GetTimeUnitMultiplier(benchmark::kNanosecond) /
                  benchmark::GetTimeUnitMultiplier(run.time_unit);
      results[name] = ns;
      for (const auto& [key, counter] : run.counters) results[key] = counter.value;
    }
  }
  std::map<std::string, double> results;
  std::map<std::string, std::string> labels;
};

std::string take_flag(int& argc, char** argv, const char* flag) {
  std::string value;
  size_t n = std::strlen(flag);
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], flag, n) == 0 && argv[i][n] == '=') {
      value = argv[i] + n + 1;
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  return value;
}

// The targets the issues set, as ratios of two keys measured in the same run; written next to
// the keys when both are present. "a_vs_b" is a speed-up (b's time / a's time: how many times
// faster a is); "a_over_b" is a's time / b's time.
struct TargetRatio {
  const char* key;
  const char* numerator;
  const char* denominator;
};
constexpr TargetRatio kTargetRatios[] = {
    // resolve within 1.5x of the raw pointer: handle_resolve_ns / raw_pointer_ns <= 1.5
    {"resolve_over_raw_pointer", "handle_resolve_ns", "raw_pointer_ns"},
    // resolve at least 5x faster than the map: unordered_map_ns / handle_resolve_ns >= 5
    {"resolve_vs_unordered_map", "unordered_map_ns", "handle_resolve_ns"},
    // LayerPool at least 20x faster than the reference (scanning) pool at 4,096 layers
    {"layerpool_vs_reference_4096", "layerpool_reference_ns_4096", "layerpool_ns_4096"},
    // recycled tile layers against destroy-and-recreate, same frame loop
    {"tile_recycle_vs_destroy", "frame_loop_destroy_ms", "frame_loop_recycle_ms"},
    // the curves (issue 14): resolve within 1.5x of the raw pointer at every size
    {"resolve_over_raw_pointer_1000", "handle_resolve_ns_1000", "raw_pointer_ns_1000"},
    {"resolve_over_raw_pointer_10000", "handle_resolve_ns_10000", "raw_pointer_ns_10000"},
    {"resolve_over_raw_pointer_100000", "handle_resolve_ns_100000", "raw_pointer_ns_100000"},
    {"resolve_over_raw_pointer_1000000", "handle_resolve_ns_1000000", "raw_pointer_ns_1000000"},
    // LayerPool at 65,536 layers within 2x of 64 layers
    {"layerpool_65536_over_64", "layerpool_ns_65536", "layerpool_ns_64"},
    // recycle against texture-per-tile at each number of visible tiles
    {"tile_recycle_vs_destroy_16", "frame_loop_destroy_ms_16", "frame_loop_recycle_ms_16"},
    {"tile_recycle_vs_destroy_64", "frame_loop_destroy_ms_64", "frame_loop_recycle_ms_64"},
    {"tile_recycle_vs_destroy_256", "frame_loop_destroy_ms_256", "frame_loop_recycle_ms_256"},
    {"tile_recycle_vs_destroy_1024", "frame_loop_destroy_ms_1024", "frame_loop_recycle_ms_1024"},
    // threads (issue 24): resolve on each of 8 threads at once within 1.2x of one thread alone
    {"resolve_threads_8_over_1", "handle_resolve_ns_threads_8", "handle_resolve_ns_threads_1"},
    // the raw pointer's own scaling on the same host, and resolve against it at 8 threads
    {"raw_pointer_threads_8_over_1", "raw_pointer_ns_threads_8", "raw_pointer_ns_threads_1"},
    {"resolve_over_raw_pointer_threads_8", "handle_resolve_ns_threads_8", "raw_pointer_ns_threads_8"},
    // a generational check's own cost in each slot form, against the raw pointer (slot_layout_bench.cpp)
    {"slot_layout_two_arrays_over_raw_1000", "slot_layout_two_arrays_ns_1000", "slot_layout_raw_ns_1000"},
    {"slot_layout_two_arrays_over_raw_10000", "slot_layout_two_arrays_ns_10000", "slot_layout_raw_ns_10000"},
    {"slot_layout_two_arrays_branch_over_raw_1000", "slot_layout_two_arrays_branch_ns_1000", "slot_layout_raw_ns_1000"},
    {"slot_layout_two_arrays_branch_over_raw_10000", "slot_layout_two_arrays_branch_ns_10000", "slot_layout_raw_ns_10000"},
    {"slot_layout_slot16_over_raw_1000", "slot_layout_slot16_ns_1000", "slot_layout_raw_ns_1000"},
    {"slot_layout_slot16_over_raw_10000", "slot_layout_slot16_ns_10000", "slot_layout_raw_ns_10000"},
    {"slot_layout_slot16_branch_over_raw_1000", "slot_layout_slot16_branch_ns_1000", "slot_layout_raw_ns_1000"},
    {"slot_layout_slot16_branch_over_raw_10000", "slot_layout_slot16_branch_ns_10000", "slot_layout_raw_ns_10000"},
    // the churn's phases against Dawn's own (handle_bench.cpp): a registry create over a raw one
    {"registry_create_over_raw", "registry_create_ns", "raw_create_ns"},
    // the registry's create + destroy throughput against raw Dawn's from as many threads:
    // raw_churn_ns / registry_churn_ns, at least 0.8 (1 would be the registry costing nothing)
    {"registry_churn_vs_raw_threads_1", "raw_churn_ns_threads_1", "registry_churn_ns_threads_1"},
    {"registry_churn_vs_raw_threads_2", "raw_churn_ns_threads_2", "registry_churn_ns_threads_2"},
    {"registry_churn_vs_raw_threads_4", "raw_churn_ns_threads_4", "registry_churn_ns_threads_4"},
    {"registry_churn_vs_raw_threads_8", "raw_churn_ns_threads_8", "registry_churn_ns_threads_8"},
    // the same on the machine's own device (Vulkan on a GPU host), where Dawn does a driver's work
    {"registry_churn_device_vs_raw_threads_1", "raw_churn_device_ns_threads_1", "registry_churn_device_ns_threads_1"},
    {"registry_churn_device_vs_raw_threads_2", "raw_churn_device_ns_threads_2", "registry_churn_device_ns_threads_2"},
    {"registry_churn_device_vs_raw_threads_4", "raw_churn_device_ns_threads_4", "registry_churn_device_ns_threads_4"},
    {"registry_churn_device_vs_raw_threads_8", "raw_churn_device_ns_threads_8", "registry_churn_device_ns_threads_8"},
    // the churn's ladder of promises (churn_ladder_bench.cpp): raw Dawn over the registry, one thread
    {"churn_ladder_registry_vs_raw", "churn_ladder_raw_ns", "churn_ladder_registry_ns"},
    {"churn_ladder_registry_vs_raw_device", "churn_ladder_raw_device_ns", "churn_ladder_registry_device_ns"},
    {"churn_ladder_registry_vs_raw_threads_1", "churn_ladder_raw_ns_threads_1", "churn_ladder_registry_ns_threads_1"},
    {"churn_ladder_registry_vs_raw_device_threads_1", "churn_ladder_raw_device_ns_threads_1",
     "churn_ladder_registry_device_ns_threads_1"},
};

void add_target_ratios(nlohmann::json& results) {
  for (const TargetRatio& ratio : kTargetRatios) {
    if (!results.contains(ratio.numerator) || !results.contains(ratio.denominator)) continue;
    if (!results[ratio.numerator].is_number() || !results[ratio.denominator].is_number()) continue;
    const double denominator = results[ratio.denominator].get<double>();
    if (denominator > 0) results[ratio.key] = results[ratio.numerator].get<double>() / denominator;
  }
}

// The curves scripts/bench-plot.sh draws: one data file per figure, a row per x, a column per
// series ("NaN" where a point was not measured: skipped here, or filtered out).
struct Curve {
  const char* file;
  std::vector<uint64_t> xs;
  std::vector<const char*> key_prefixes;  // key = prefix + x
};
const Curve kCurves[] = {
    {"resolve", {1000, 10000, 100000, 1000000}, {"handle_resolve_ns_", "raw_pointer_ns_"}},
    {"churn", {1000, 10000, 100000, 1000000}, {"registry_churn_ns_", "raw_churn_ns_"}},
    {"layerpool", {64, 256, 1024, 4096, 16384, 65536}, {"layerpool_ns_", "layerpool_reference_ns_"}},
    {"tile_frame", {16, 64, 256, 1024}, {"frame_loop_recycle_ms_", "frame_loop_destroy_ms_"}},
    {"churn_threads", {1, 2, 4, 8}, {"registry_churn_ns_threads_", "raw_churn_ns_threads_"}},
    {"churn_device_threads", {1, 2, 4, 8}, {"registry_churn_device_ns_threads_", "raw_churn_device_ns_threads_"}},
};

void write_curves(const nlohmann::json& results, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  for (const Curve& curve : kCurves) {
    std::ofstream out(dir / (std::string(curve.file) + ".dat"));
    out << "# x";
    for (const char* prefix : curve.key_prefixes) out << " " << prefix;
    out << "\n";
    for (uint64_t x : curve.xs) {
      out << x;
      for (const char* prefix : curve.key_prefixes) {
        const std::string key = prefix + std::to_string(x);
        if (results.contains(key) && results[key].is_number()) {
          out << " " << results[key].get<double>();
        } else {
          out << " NaN";
        }
      }
      out << "\n";
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path = take_flag(argc, argv, "--warden_out");
  std::string parts_dir = take_flag(argc, argv, "--warden_parts");
  constexpr std::string_view kInterleaving = "--benchmark_enable_random_interleaving";
  std::vector<char*> args(argv, argv + argc);
  bool interleaving_given = false;
  for (char* arg : args) interleaving_given |= std::string_view(arg).starts_with(kInterleaving);
  std::string interleave = std::string(kInterleaving) + "=true";
  if (!interleaving_given) args.insert(args.begin() + 1, interleave.data());
  argc = static_cast<int>(args.size());
  argv = args.data();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  nlohmann::json results = nlohmann::json::object();
  for (const auto& [k, v] : reporter.results) results[k] = v;
  for (const auto& [k, v] : reporter.labels) results[k] = v;
  if (!parts_dir.empty() && std::filesystem::is_directory(parts_dir)) {
    for (const auto& entry : std::filesystem::directory_iterator(parts_dir)) {
      if (entry.path().extension() != ".json") continue;
      std::ifstream in(entry.path());
      nlohmann::json part = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
      if (!part.is_object()) {
        fmt::print(stderr, "bench: {} is not a JSON object, skipped\n", entry.path().string());
        continue;
      }
      for (const auto& [k, v] : part.items()) results[k] = v;
    }
  }
  add_target_ratios(results);
  // Where and when: scripts/bench.sh passes these through the environment.
  for (const char* name : {"WARDEN_BENCH_DATE", "WARDEN_BENCH_COMMIT", "WARDEN_BENCH_MACHINE"}) {
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') {
      std::string key = name + std::strlen("WARDEN_");
      for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      results[key] = value;
    }
  }
  fmt::print("\n{:<40} {:>16}\n", "result", "value");
  for (const auto& [k, v] : results.items()) fmt::print("{:<40} {:>16}\n", k, v.dump());
  if (!out_path.empty()) {
    std::filesystem::create_directories(std::filesystem::path(out_path).parent_path());
    std::ofstream(out_path) << results.dump(2) << "\n";
    write_curves(results, std::filesystem::path(out_path).parent_path() / "curves");
    fmt::print("\nwrote {}\n", out_path);
  }
  return 0;
}
