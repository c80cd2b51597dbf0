// Rendering kernel templates (render_source) on the host. There is no vendor call to compare
// with, so the raw side is a plain std::string find-and-replace of the same placeholders by
// the same text, in the same process: the ratio is what plinth's generality costs (scopes,
// paths, calls, modules, messages that name the line).
//
// Sources of 10 k, 100 k and 1 M placeholders, four to a line: rendering is linear in the
// source size when placeholders/s stays the same across sizes. render/complexity/plinth
// renders the same sources once more, as one family, for Google Benchmark's O(N) fit.

#include "common.hpp"

#include <plinth/render.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace plinth_bench;

constexpr std::int64_t sizes[] = {10'000, 100'000, 1'000'000};  // multiples of 4

std::string count_name(std::int64_t count) {
  if (count % 1'000'000 == 0) return std::to_string(count / 1'000'000) + "M";
  if (count % 1'000 == 0) return std::to_string(count / 1'000) + "k";
  return std::to_string(count);
}

// A source with `placeholders` placeholders, the globals plinth renders it with, and the same
// substitutions as plain text for the find-and-replace.
struct Source {
  std::int64_t placeholders = 0;
  std::string text;
  plinth::RenderGlobals globals{{"i", 7}, {"x", "in[i]"}, {"y", 2.5}, {"z", "out"}};
  std::map<std::string, std::string, std::less<>> replacements{
      {"i", "7"}, {"x", "in[i]"}, {"y", "2.5"}, {"z", "out"}};
};

// The raw side: each `${name}` replaced by replacements[name].
std::string find_and_replace(const Source& source) {
  const std::string& text = source.text;
  std::string out;
  std::size_t pos = 0;
  for (auto open = text.find("${"); open != std::string::npos; open = text.find("${", pos)) {
    out.append(text, pos, open - pos);
    const auto close = text.find('}', open + 2);
    const auto found =
        close == std::string::npos
            ? source.replacements.end()
            : source.replacements.find(std::string_view(text).substr(open + 2, close - open - 2));
    if (found == source.replacements.end()) throw std::runtime_error("find_and_replace failed");
    out += found->second;
    pos = close + 1;
  }
  out.append(text, pos);
  return out;
}

std::string render(const Source& source) {
  return plinth::render_source(source.text, {}, source.globals);
}

std::shared_ptr<const Source> make_source(std::int64_t placeholders) {
  auto source = std::make_shared<Source>();
  source->placeholders = placeholders;
  for (std::int64_t line = 0; line < placeholders / 4; ++line)
    source->text += "${z}[${i}] = ${x} * ${y};\n";
  require(render(*source) == find_and_replace(*source), "render_source",
          "its output differs from the find-and-replace's");
  return source;
}

// Times `render` of `source`: real time per render, placeholders (items) and source bytes
// per second, heap allocations per render.
template <class Render>
void time_renders(benchmark::State& state, const Source& source, Render&& render_once) {
  warm_up([&] { benchmark::DoNotOptimize(render_once(source)); });
  AllocationCounter allocs;
  for (auto _ : state) benchmark::DoNotOptimize(render_once(source));
  allocs.report(state);
  state.SetItemsProcessed(state.iterations() * source.placeholders);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(source.text.size()));
  state.SetComplexityN(source.placeholders);
  state.counters["placeholders"] = benchmark::Counter(
      static_cast<double>(state.iterations() * source.placeholders), benchmark::Counter::kIsRate);
}

void register_renders() {
  std::map<std::int64_t, std::shared_ptr<const Source>> sources;
  for (const auto count : sizes) sources[count] = make_source(count);

  for (const auto count : sizes) {
    const auto source = sources.at(count);
    auto pair = register_pair(
        {"render/" + count_name(count), Measure::latency, 0, {"placeholders", "allocs/iter"}},
        [source](benchmark::State& state) { time_renders(state, *source, render); },
        [source](benchmark::State& state) { time_renders(state, *source, find_and_replace); });
    configure(pair, [](auto* b) {
      b->MinTime(short_min_time)->UseRealTime()->Unit(benchmark::kMillisecond);
    });
  }

  // One family over the three sizes, for the O(N) fit (not in the ratio table).
  auto* complexity =
      benchmark::RegisterBenchmark("render/complexity/plinth", [sources](benchmark::State& state) {
        time_renders(state, *sources.at(state.range(0)), render);
      });
  for (const auto count : sizes) complexity->Arg(count);
  complexity->MinTime(short_min_time)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond)
      ->Complexity(benchmark::oN);
}

}  // namespace

int main(int argc, char** argv) {
  auto args = with_default_options(argc, argv);
  int count = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  try {
    register_renders();
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-render: " << error.what() << std::endl;
    return 1;
  }
  const int status = run_benchmarks();
  benchmark::ClearRegisteredBenchmarks();
  return status;
}
