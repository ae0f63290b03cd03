// ck_zxing.cpp - C shim over zxing-cpp 1.4 (Debian 12's libzxing-dev) and 2.x (Debian 13's, 2.3).
//
// SAFETY RULE (see README/report): Debian's libZXing.so.1.4.0 is built with asserts
// enabled, and Result::operator== asserts lineCount()==1 for linear symbols
// (Result.cpp:140). operator== is only called from ReadBarcodes' duplicate check
// (lhs = an already accepted result, lineCount >= 2 for linear codes) and from
// OneD DoDecode (lhs = fresh row result, lineCount 1 except DataBar*). Therefore
// this shim
//   * never enables DataBar / DataBarExpanded (formats are never empty = "Any"),
//   * calls ReadBarcodes for LINEAR formats only with maxNumberOfSymbols = 1, and
//     finds further linear symbols by masking the found one in a private copy,
//   * calls ReadBarcodes with maxNumberOfSymbols > 1 only for MATRIX formats,
//     whose operator== path returns before the assert.
#ifndef ZX_USE_UTF8
#define ZX_USE_UTF8 1
#endif
#include "ck_zxing.h"

// zxing-cpp 1.4 (Debian 12) or 2.x (Debian 13), told apart at build time: 2.x has Version.h
// (its ZXVersion.h is a deprecated forwarder), names its options ReaderOptions and its results
// Barcode; 1.4 has DecodeHints and Result.
#if __has_include(<ZXing/Version.h>)
#include <ZXing/Version.h>
#else
#include <ZXing/ZXVersion.h>
#endif
#include <ZXing/ReadBarcode.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

using namespace ZXing;

namespace {

#if ZXING_VERSION_MAJOR >= 2
using Options = ReaderOptions;
using Symbol = Barcode;
using Symbols = Barcodes;
#else
using Options = DecodeHints;
using Symbol = Result;
using Symbols = Results;
#endif

struct Found {
	uint32_t format;
	std::string text;
	ck_point corners[4];
	int orientation;
};

struct Gray { // owning contiguous 8-bit image
	std::vector<uint8_t> px;
	int w = 0, h = 0;
	uint8_t at(int x, int y) const { return px[size_t(y) * w + x]; }
};

bool Gs1CheckOk(const std::string& d)
{
	if (d.size() < 2) return false;
	int sum = 0;
	int n = int(d.size());
	for (int i = n - 2, k = 0; i >= 0; --i, ++k) {
		if (d[i] < '0' || d[i] > '9') return false;
		sum += (d[i] - '0') * (k % 2 == 0 ? 3 : 1);
	}
	if (d[n - 1] < '0' || d[n - 1] > '9') return false;
	return (10 - sum % 10) % 10 == d[n - 1] - '0';
}

bool Code39Mod43Ok(const std::string& s)
{
	static const char* alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%";
	if (s.size() < 2) return false;
	int sum = 0;
	for (size_t i = 0; i + 1 < s.size(); ++i) {
		const char* p = std::strchr(alphabet, s[i]);
		if (!p || !s[i]) return false;
		sum += int(p - alphabet);
	}
	return alphabet[sum % 43] == s.back();
}

BarcodeFormats LinearZX(uint32_t f)
{
	BarcodeFormats z;
	if (f & CK_FORMAT_UPCE) z |= BarcodeFormat::UPCE;
	if (f & (CK_FORMAT_CODE39 | CK_FORMAT_CODE39_MOD43)) z |= BarcodeFormat::Code39;
	if (f & CK_FORMAT_EAN13) z |= BarcodeFormat::EAN13 | BarcodeFormat::UPCA;
	if (f & CK_FORMAT_EAN8) z |= BarcodeFormat::EAN8;
	if (f & CK_FORMAT_CODE93) z |= BarcodeFormat::Code93;
	if (f & CK_FORMAT_CODE128) z |= BarcodeFormat::Code128;
	if (f & (CK_FORMAT_I2OF5 | CK_FORMAT_ITF14)) z |= BarcodeFormat::ITF;
	return z;
}

BarcodeFormats MatrixZX(uint32_t f)
{
	BarcodeFormats z;
	if (f & CK_FORMAT_PDF417) z |= BarcodeFormat::PDF417;
	if (f & CK_FORMAT_QR) z |= BarcodeFormat::QRCode;
	if (f & CK_FORMAT_AZTEC) z |= BarcodeFormat::Aztec;
	if (f & CK_FORMAT_DATAMATRIX) z |= BarcodeFormat::DataMatrix;
	return z;
}

// Map a zxing result to our format; returns false if the caller did not ask for it.
bool MapResult(const Symbol& r, uint32_t want, Found& out)
{
	std::string t = r.text();
	uint32_t f = 0;
	switch (r.format()) {
	case BarcodeFormat::UPCE: f = CK_FORMAT_UPCE; break;
	case BarcodeFormat::EAN8: f = CK_FORMAT_EAN8; break;
	case BarcodeFormat::EAN13: f = CK_FORMAT_EAN13; break;
	case BarcodeFormat::UPCA: f = CK_FORMAT_EAN13; t = "0" + t; break;
	case BarcodeFormat::Code93: f = CK_FORMAT_CODE93; break;
	case BarcodeFormat::Code128: f = CK_FORMAT_CODE128; break;
	case BarcodeFormat::PDF417: f = CK_FORMAT_PDF417; break;
	case BarcodeFormat::QRCode: f = CK_FORMAT_QR; break;
	case BarcodeFormat::Aztec: f = CK_FORMAT_AZTEC; break;
	case BarcodeFormat::DataMatrix: f = CK_FORMAT_DATAMATRIX; break;
	case BarcodeFormat::Code39:
		if ((want & CK_FORMAT_CODE39_MOD43) && Code39Mod43Ok(t)) {
			f = CK_FORMAT_CODE39_MOD43;
			t.pop_back();
		} else {
			f = CK_FORMAT_CODE39;
		}
		break;
	case BarcodeFormat::ITF:
		if ((want & CK_FORMAT_ITF14) && t.size() == 14 && Gs1CheckOk(t))
			f = CK_FORMAT_ITF14;
		else
			f = CK_FORMAT_I2OF5;
		break;
	default: return false;
	}
	if (!(want & f)) return false;
	out.format = f;
	out.text = std::move(t);
	const auto& p = r.position();
	for (int i = 0; i < 4; ++i)
		out.corners[i] = {p[i].x, p[i].y};
	out.orientation = r.orientation();
	return true;
}

bool SameSymbol(const Found& a, const Found& b)
{
	if (a.format != b.format || a.text != b.text) return false;
	auto cx = [](const Found& f) { return (f.corners[0].x + f.corners[1].x + f.corners[2].x + f.corners[3].x) / 4.0; };
	auto cy = [](const Found& f) { return (f.corners[0].y + f.corners[1].y + f.corners[2].y + f.corners[3].y) / 4.0; };
	double len = std::max(std::hypot(a.corners[1].x - a.corners[0].x, a.corners[1].y - a.corners[0].y),
	                      std::hypot(a.corners[3].x - a.corners[0].x, a.corners[3].y - a.corners[0].y));
	return std::hypot(cx(a) - cx(b), cy(a) - cy(b)) < std::max(8.0, len * 0.75);
}

double Pearson(const std::vector<double>& a, const std::vector<double>& b)
{
	size_t n = std::min(a.size(), b.size());
	if (n < 4) return 0;
	double ma = 0, mb = 0;
	for (size_t i = 0; i < n; ++i) ma += a[i], mb += b[i];
	ma /= n, mb /= n;
	double sab = 0, saa = 0, sbb = 0;
	for (size_t i = 0; i < n; ++i) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	if (saa < 1e-9 || sbb < 1e-9) return 0;
	return sab / std::sqrt(saa * sbb);
}

// A gray image in the caller's memory (or a private copy): no copy is made to read it.
struct Source {
	const uint8_t* data;
	int w, h, stride;
	uint8_t at(int x, int y) const { return data[size_t(y) * stride + x]; }
};

// Where a linear symbol found at quad q lies: its centre scan line from a to b (unit direction d,
// normal n pointing "down" in reading orientation) and how far its bars reach along n either
// side (t0 < 0 < t1), followed while the bars' profile still correlates with the centre line's.
struct Bars {
	double ax, ay, bx, by, dx, dy, nx, ny, L, t0, t1, mean;
	// The bars' quad: top-left, top-right, bottom-right, bottom-left in reading orientation.
	void quad(ck_point out[4]) const
	{
		auto pt = [](double x, double y) { return ck_point{int32_t(std::lround(x)), int32_t(std::lround(y))}; };
		out[0] = pt(ax + t0 * nx, ay + t0 * ny);
		out[1] = pt(bx + t0 * nx, by + t0 * ny);
		out[2] = pt(bx + t1 * nx, by + t1 * ny);
		out[3] = pt(ax + t1 * nx, ay + t1 * ny);
	}
};

Bars TraceBars(const Source& img, const ck_point q[4])
{
	Bars r;
	r.ax = (q[0].x + q[3].x) / 2.0, r.ay = (q[0].y + q[3].y) / 2.0; // start of centre line
	r.bx = (q[1].x + q[2].x) / 2.0, r.by = (q[1].y + q[2].y) / 2.0; // end of centre line
	r.L = std::hypot(r.bx - r.ax, r.by - r.ay);
	if (r.L < 2) r.L = 2, r.bx = r.ax + 2, r.by = r.ay;
	r.dx = (r.bx - r.ax) / r.L, r.dy = (r.by - r.ay) / r.L; // along the scan line
	r.nx = -r.dy, r.ny = r.dx;                               // along the bars
	int N = int(r.L);
	auto sample = [&](double t, std::vector<double>& prof) {
		prof.resize(N);
		int inside = 0;
		for (int i = 0; i < N; ++i) {
			int x = int(std::lround(r.ax + i * r.dx + t * r.nx)), y = int(std::lround(r.ay + i * r.dy + t * r.ny));
			if (x < 0 || y < 0 || x >= img.w || y >= img.h) { prof[i] = 0; continue; }
			prof[i] = img.at(x, y);
			++inside;
		}
		return inside > N / 2;
	};
	std::vector<double> ref, cur;
	sample(0, ref);
	double mean = 0;
	for (double v : ref) mean += v;
	r.mean = ref.empty() ? 255 : mean / ref.size();
	double extent[2] = {0, 0};
	double maxT = std::max(img.w, img.h);
	for (int s = 0; s < 2; ++s) {
		double dir = s ? 1 : -1;
		int misses = 0;
		for (double t = 1; t < maxT; t += 1) {
			if (!sample(dir * t, cur)) break;
			if (Pearson(ref, cur) > 0.5) { extent[s] = t; misses = 0; }
			else if (++misses > 3) break;
		}
	}
	double halfQuad = std::max(std::hypot(q[3].x - q[0].x, q[3].y - q[0].y), std::hypot(q[2].x - q[1].x, q[2].y - q[1].y)) / 2;
	r.t0 = -std::max(extent[0], halfQuad);
	r.t1 = std::max(extent[1], halfQuad);
	return r;
}

// Whether an EAN/UPC read of `modules` modules (guards included) has quiet zones: nothing dark
// from 1.5 to 5 modules beyond either end, on its centre line or a third of the way to its bars'
// ends. A UPC-E or EAN-8 read out of part of a longer code (the left half of an EAN-13 has
// UPC-E's guards) has that code's other bars there; for those short codes a saturated end, or
// one cut by the image's edge, may hide them and is refused too.
bool QuietEnds(const Source& img, const Bars& b, int modules, bool shortCode)
{
	double X = b.L / modules;
	std::vector<int> line;
	for (int i = 0; i <= int(b.L); ++i) {
		int x = int(std::lround(b.ax + i * b.dx)), y = int(std::lround(b.ay + i * b.dy));
		if (x >= 0 && y >= 0 && x < img.w && y < img.h) line.push_back(img.at(x, y));
	}
	if (line.size() < 8) return !shortCode; // nothing to judge by: short codes are refused
	std::sort(line.begin(), line.end());
	int dark = line[line.size() / 10], light = line[line.size() * 9 / 10];
	if (light - dark < 20) return !shortCode; // too flat to judge (e.g. masked): short codes are refused
	int threshold = (dark + light) / 2;
	double sideSum[2] = {0, 0};
	int sideCount[2] = {0, 0};
	for (double t : {0.0, b.t0 / 3, b.t1 / 3})
		for (int side = 0; side < 2; ++side) {
			double ox = (side ? b.bx : b.ax) + t * b.nx, oy = (side ? b.by : b.ay) + t * b.ny, dir = side ? 1 : -1;
			int darkRun = 0;
			for (double s = 1.5 * X; s <= 5 * X; s += 0.5) {
				int x = int(std::lround(ox + dir * s * b.dx)), y = int(std::lround(oy + dir * s * b.dy));
				if (x < 0 || y < 0 || x >= img.w || y >= img.h) {
					if (shortCode) return false;
					break;
				}
				int v = img.at(x, y);
				sideSum[side] += v, ++sideCount[side];
				darkRun = v < threshold ? darkRun + 1 : 0;
				if (darkRun >= std::max(1.0, X)) return false; // a bar: at least a module wide
			}
		}
	// glare: one end saturated and unlike the other (the paper)
	if (shortCode && sideCount[0] && sideCount[1]) {
		double m0 = sideSum[0] / sideCount[0], m1 = sideSum[1] / sideCount[1];
		if (std::max(m0, m1) >= 248 && std::abs(m0 - m1) > 0.15 * (light - dark)) return false;
	}
	return true;
}

// Blank out traced bars (plus quiet-zone margin) in img with a flat value.
void MaskLinear(Gray& img, const Bars& b)
{
	double t0 = b.t0 - 3, t1 = b.t1 + 3;
	double m = 0.02 * b.L + 3; // a little past the outer guard bars (keep neighbours intact)
	uint8_t fill = uint8_t(std::clamp(b.mean, 0.0, 255.0));
	// rasterize the parallelogram by scanning its bounding box
	double cxs[4] = {b.ax - m * b.dx + t0 * b.nx, b.bx + m * b.dx + t0 * b.nx, b.bx + m * b.dx + t1 * b.nx, b.ax - m * b.dx + t1 * b.nx};
	double cys[4] = {b.ay - m * b.dy + t0 * b.ny, b.by + m * b.dy + t0 * b.ny, b.by + m * b.dy + t1 * b.ny, b.ay - m * b.dy + t1 * b.ny};
	int x0 = std::max(0, int(std::floor(*std::min_element(cxs, cxs + 4))));
	int x1 = std::min(img.w - 1, int(std::ceil(*std::max_element(cxs, cxs + 4))));
	int y0 = std::max(0, int(std::floor(*std::min_element(cys, cys + 4))));
	int y1 = std::min(img.h - 1, int(std::ceil(*std::max_element(cys, cys + 4))));
	for (int y = y0; y <= y1; ++y)
		for (int x = x0; x <= x1; ++x) {
			double u = (x - b.ax) * b.dx + (y - b.ay) * b.dy; // along scan line
			double v = (x - b.ax) * b.nx + (y - b.ay) * b.ny; // along bars
			if (u >= -m && u <= b.L + m && v >= t0 && v <= t1)
				img.px[size_t(y) * img.w + x] = fill;
		}
}

Options BaseHints(const ck_options& o)
{
	Options h;
	h.setTryHarder(o.try_harder)
		.setTryRotate(o.try_rotate)
		.setTryDownscale(o.try_downscale)
		.setBinarizer(Binarizer(o.binarizer & 3))
		.setIsPure(false)
		.setReturnErrors(false) // never hand out (or compare) error results
		.setTryCode39ExtendedMode(false)
		.setEanAddOnSymbol(EanAddOnSymbol::Ignore);
	// Check digits are ours to verify: mod 43 for Code 39 (keeps plain Code 39 readable), GS1's
	// for ITF-14. 1.4 validates them when asked (not asked here); 2.x never does (the options are
	// deprecated no-ops there) and says in symbologyIdentifier() what it found.
#if ZXING_VERSION_MAJOR >= 2
	// Inverted images are read by ck_decode_gray's own pass (try_invert), with the masking and
	// crops of DecodePass; 2.x's own inversion (on by default) would read every image twice.
	h.setTryInvert(false);
#else
	h.setValidateCode39CheckSum(false).setValidateITFCheckSum(false);
#endif
	return h;
}

void AddUnique(std::vector<Found>& acc, Found&& f)
{
	for (auto& e : acc)
		if (SameSymbol(e, f)) return;
	acc.push_back(std::move(f));
}

// A contiguous private copy of src, for masking or inverting.
Gray Copy(const Source& src, bool invert)
{
	Gray g;
	g.w = src.w, g.h = src.h;
	g.px.resize(size_t(src.w) * src.h);
	for (int y = 0; y < src.h; ++y) {
		const uint8_t* row = src.data + size_t(y) * src.stride;
		uint8_t* out = &g.px[size_t(y) * src.w];
		if (invert)
			for (int x = 0; x < src.w; ++x) out[x] = uint8_t(255 - row[x]);
		else
			std::memcpy(out, row, size_t(src.w));
	}
	return g;
}

// Boxes around 2-D texture (dark and light alternating both across and down, in 8-pixel cells
// with some contrast), largest first: where an Aztec or Data Matrix code may lie. zxing 1.4 looks
// for both from the image's centre (Aztec: a bull's eye near it; Data Matrix: lines through it),
// so a symbol away from the centre is found only in a crop centred on it.
std::vector<ck_rect> MatrixCandidates(const Source& img)
{
	constexpr int C = 8;
	const int cw = img.w / C, ch = img.h / C;
	std::vector<ck_rect> boxes;
	if (cw < 2 || ch < 2) return boxes;
	thread_local std::vector<uint8_t> busy, grown; // per frame: kept between calls on a thread
	busy.assign(size_t(cw) * ch, 0);
	for (int cy = 0; cy < ch; ++cy)
		for (int cx = 0; cx < cw; ++cx) {
			int lo = 255, hi = 0;
			for (int y = cy * C; y < cy * C + C; y += 2) { // every other row: enough for the contrast
				const uint8_t* row = img.data + size_t(y) * img.stride + cx * C;
				for (int x = 0; x < C; ++x) lo = std::min<int>(lo, row[x]), hi = std::max<int>(hi, row[x]);
			}
			if (hi - lo < 40) continue;
			int t = (lo + hi) / 2, across = 0, down = 0;
			for (int y = cy * C; y < cy * C + C; ++y) {
				const uint8_t* row = img.data + size_t(y) * img.stride + cx * C;
				const uint8_t* next = y + 1 < img.h ? row + img.stride : row;
				for (int x = 0; x < C; ++x) {
					bool dark = row[x] < t;
					if (x + 1 < C && dark != (row[x + 1] < t)) ++across;
					if (dark != (next[x] < t)) ++down;
				}
			}
			busy[size_t(cy) * cw + cx] = across >= 3 && down >= 3; // a corner or a crossing of edges
		}
	// close gaps of one cell (large modules leave cells inside a symbol without a corner)
	grown.assign(busy.size(), 0);
	for (int cy = 0; cy < ch; ++cy)
		for (int cx = 0; cx < cw; ++cx)
			if (busy[size_t(cy) * cw + cx])
				for (int ny = std::max(0, cy - 1); ny <= std::min(ch - 1, cy + 1); ++ny)
					for (int nx = std::max(0, cx - 1); nx <= std::min(cw - 1, cx + 1); ++nx) grown[size_t(ny) * cw + nx] = 1;
	busy.swap(grown);
	thread_local std::vector<int> stack;
	for (int start = 0; start < cw * ch; ++start) {
		if (busy[start] != 1) continue;
		int x0 = cw, y0 = ch, x1 = -1, y1 = -1, count = 0;
		busy[start] = 2;
		stack.assign(1, start);
		while (!stack.empty()) {
			int i = stack.back();
			stack.pop_back();
			int x = i % cw, y = i / cw;
			x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y), ++count;
			for (int ny = std::max(0, y - 1); ny <= std::min(ch - 1, y + 1); ++ny)
				for (int nx = std::max(0, x - 1); nx <= std::min(cw - 1, x + 1); ++nx)
					if (busy[size_t(ny) * cw + nx] == 1) busy[size_t(ny) * cw + nx] = 2, stack.push_back(ny * cw + nx);
		}
		if (x1 - x0 >= 2) ++x0, --x1; // undo the growth
		if (y1 - y0 >= 2) ++y0, --y1;
		int bw = (x1 - x0 + 1) * C, bh = (y1 - y0 + 1) * C;
		// 2-D codes fill their box with corners; the ends of a linear code's bars make a thin
		// line of them, text a sparse field
		int cells = (x1 - x0 + 1) * (y1 - y0 + 1);
		if (count < 12 || bw < 3 * C || bh < 3 * C || count < cells / 2) continue;
		// a margin for the quiet zone and the cells the texture test missed at the symbol's edge
		int m = std::max(2 * C, std::max(bw, bh) / 3);
		ck_rect r{x0 * C - m, y0 * C - m, bw + 2 * m, bh + 2 * m};
		r.x = std::max(0, r.x), r.y = std::max(0, r.y);
		r.width = std::min(img.w - r.x, r.width), r.height = std::min(img.h - r.y, r.height);
		if (double(r.width) * r.height > 0.5 * double(img.w) * img.h) continue; // the full frame was read already
		boxes.push_back(r);
	}
	std::sort(boxes.begin(), boxes.end(), [](const ck_rect& a, const ck_rect& b) { return a.width * a.height > b.width * b.height; });
	if (boxes.size() > 16) boxes.resize(16);
	return boxes;
}

// Runs of dark and light along a line of n samples p[0], p[step], ..., thresholded at the mean
// of the 2r+1 samples around each (a running sum): (start, length, dark, sum of samples) each.
struct Run {
	int start, length;
	bool dark;
	int sum; // of the samples
};

void Runs(const uint8_t* p, int n, ptrdiff_t step, int r, std::vector<Run>& runs)
{
	runs.clear();
	int sum = 0, lo = 0, hi = 0; // the window [lo, hi)
	for (int i = 0; i < n; ++i) {
		int wantHi = i + r + 1 < n ? i + r + 1 : n, wantLo = i - r > 0 ? i - r : 0;
		while (hi < wantHi) sum += p[hi++ * step];
		while (lo < wantLo) sum -= p[lo++ * step];
		int v = p[i * step];
		bool dark = v * (hi - lo) < sum;
		if (runs.empty() || runs.back().dark != dark) runs.push_back({i, 1, dark, v});
		else ++runs.back().length, runs.back().sum += v;
	}
}

// How well runs[k-4..k+4] (k dark) look like the middle of an Aztec bull's eye: seven runs of
// about one width (ring 3 light, ring 2 dark, ring 1 light, the centre, and back out) between
// two dark ones (ring 4, which may run into the data), dark and light well apart. Returns the
// contrast (0: no) and the module size.
int BullsEyeAt(const std::vector<Run>& runs, size_t k, double& module)
{
	if (k < 4 || k + 4 >= runs.size() || !runs[k].dark) return 0;
	int c = runs[k].length, before = runs[k - 1].length, after = runs[k + 1].length; // cheap rejection first
	if (before > 2 * c + 1 || c > 2 * before + 1 || after > 2 * c + 1 || c > 2 * after + 1) return 0;
	double sum = 0;
	for (size_t i = k - 3; i <= k + 3; ++i) sum += runs[i].length;
	module = sum / 7;
	if (module < 1.2) return 0;
	for (size_t i = k - 3; i <= k + 3; ++i)
		if (runs[i].length < 0.5 * module || runs[i].length > 1.7 * module) return 0;
	if (runs[k - 4].length < 0.5 * module || runs[k + 4].length < 0.5 * module) return 0;
	double dark = 0, light = 0;
	int nd = 0, nl = 0;
	for (size_t i = k - 3; i <= k + 3; ++i) (runs[i].dark ? dark : light) += runs[i].sum, (runs[i].dark ? nd : nl) += runs[i].length;
	int contrast = int(light / nl - dark / nd);
	return contrast >= 30 ? contrast : 0;
}

// Centres of Aztec bull's eyes (rows every 2 pixels, then the column through each candidate),
// with the module size seen there, the most contrasted first. zxing 1.4's Aztec detector starts
// at the image's centre and finds a symbol only if that lies in its bull's eye.
std::vector<std::pair<ck_point, double>> BullsEyes(const Source& img, size_t most)
{
	struct Eye {
		ck_point c;
		double module;
		int contrast;
	};
	std::vector<Eye> found;
	thread_local std::vector<Run> runs, column; // per frame: kept between calls on a thread
	const int r = 12;
	for (int y = 1; y < img.h - 1; y += 2) {
		const uint8_t* row = img.data + size_t(y) * img.stride;
		Runs(row, img.w, 1, r, runs);
		for (size_t k = runs.empty() || runs[4 % runs.size()].dark ? 4 : 5; k + 4 < runs.size(); k += 2) { // dark runs
			double module;
			int contrast = BullsEyeAt(runs, k, module);
			if (!contrast) continue;
			int cx = runs[k].start + runs[k].length / 2;
			int y0 = std::max(0, int(y - 8 * module)), y1 = std::min(img.h, int(y + 8 * module) + 1);
			Runs(img.data + size_t(y0) * img.stride + cx, y1 - y0, img.stride, r, column);
			for (size_t j = 4; j + 4 < column.size(); ++j) {
				double vertical;
				int cy = y0 + column[j].start + column[j].length / 2;
				if (std::abs(cy - y) > module) continue;
				int both = BullsEyeAt(column, j, vertical);
				if (!both || vertical > 1.6 * module || vertical < module / 1.6) continue;
				both = std::min(both, contrast);
				bool known = false;
				for (auto& f : found)
					if (std::abs(f.c.x - cx) < 3 * module && std::abs(f.c.y - cy) < 3 * module) {
						known = true;
						if (both > f.contrast) f = {ck_point{cx, cy}, (module + vertical) / 2, both};
					}
				if (!known && found.size() < 256) found.push_back({ck_point{cx, cy}, (module + vertical) / 2, both});
				break;
			}
		}
	}
	std::sort(found.begin(), found.end(), [](const Eye& a, const Eye& b) { return a.contrast > b.contrast; });
	std::vector<std::pair<ck_point, double>> best;
	for (size_t i = 0; i < found.size() && i < most; ++i) best.push_back({found[i].c, found[i].module});
	return best;
}

// A region of src scaled up twice (bilinear): zxing 1.4 often misses Aztec and Data Matrix
// codes of 2-5 pixels a module that it reads at twice the size.
Gray Doubled(const Source& src, int x0, int y0, int w, int h)
{
	Gray g;
	g.w = 2 * w, g.h = 2 * h;
	g.px.resize(size_t(g.w) * g.h);
	for (int y = 0; y < g.h; ++y) {
		double sy = std::clamp((y + 0.5) / 2 - 0.5, 0.0, h - 1.0);
		int iy = std::min(int(sy), h - 2 < 0 ? 0 : h - 2);
		double fy = h > 1 ? sy - iy : 0;
		const uint8_t* r0 = src.data + size_t(y0 + iy) * src.stride + x0;
		const uint8_t* r1 = h > 1 ? r0 + src.stride : r0;
		for (int x = 0; x < g.w; ++x) {
			double sx = std::clamp((x + 0.5) / 2 - 0.5, 0.0, w - 1.0);
			int ix = std::min(int(sx), w - 2 < 0 ? 0 : w - 2);
			double fx = w > 1 ? sx - ix : 0;
			int jx = w > 1 ? ix + 1 : ix;
			double top = r0[ix] * (1 - fx) + r0[jx] * fx, bottom = r1[ix] * (1 - fx) + r1[jx] * fx;
			g.px[size_t(y) * g.w + x] = uint8_t(top * (1 - fy) + bottom * fy + 0.5);
		}
	}
	return g;
}

// zxing-cpp 2.3 re-implemented its local-average binarizer (HybridBinarizer, "symmetric threshold
// interpolation"): an 8x8 block whose pixels differ by 24 or less takes its threshold from the
// blocks around it, and when no block of the image differs more, every threshold is 0 and only
// pixels of exactly 0 count as dark. A code drawn at 8 pixels a module on the 8-pixel grid
// (generated images, screen captures, video made of them) whose dark is above 0, as limited-range
// video's 16 is, then binarizes to blank. 1.4's binarizer started from the block's own minimum
// and read it. For such an image the global-histogram binarizer (what zxing itself uses for
// images too small for blocks) is asked instead. The check stops at the first block with contrast,
// which in a camera's frame is one of the first.
Options ForBlocks(Options h, const Source& img)
{
#if ZXING_VERSION_MAJOR > 2 || (ZXING_VERSION_MAJOR == 2 && ZXING_VERSION_MINOR >= 3)
	constexpr int block = 8, window = 5 * block, flat = 24;
	if (h.binarizer() != Binarizer::LocalAverage || img.w < window || img.h < window) return h;
	for (int by = 0; by < (img.h + block - 1) / block; ++by) {
		int y0 = std::min(by * block, img.h - block);
		for (int bx = 0; bx < (img.w + block - 1) / block; ++bx) {
			int x0 = std::min(bx * block, img.w - block);
			uint8_t lo = 255, hi = 0;
			for (int y = y0; y < y0 + block; ++y)
				for (int x = x0; x < x0 + block; ++x) lo = std::min(lo, img.at(x, y)), hi = std::max(hi, img.at(x, y));
			if (hi - lo > flat) return h;
		}
	}
	h.setBinarizer(Binarizer::GlobalHistogram);
#else
	(void)img;
#endif
	return h;
}

// Reads the crop (x0, y0, w, h) of src with hints h, then, if nothing was found and its modules
// may be small, the crop doubled; appends what it finds in src's coordinates.
void ReadCrop(const Source& src, int x0, int y0, int w, int h, const Options& hints, bool tryDoubled, uint32_t want,
              std::vector<Found>& acc)
{
	auto take = [&](const Symbols& rs, double scale) {
		bool any = false;
		for (auto& r : rs) {
			Found f;
			if (!r.isValid() || !MapResult(r, want, f)) continue;
			for (auto& c : f.corners) c.x = int32_t(x0 + c.x / scale), c.y = int32_t(y0 + c.y / scale);
			AddUnique(acc, std::move(f));
			any = true;
		}
		return any;
	};
	Source crop{src.data + size_t(y0) * src.stride + x0, w, h, src.stride};
	ImageView view(crop.data, w, h, ImageFormat::Lum, src.stride);
	if (take(ReadBarcodes(view, ForBlocks(hints, crop)), 1) || !tryDoubled || w > 400 || h > 400) return;
	Gray doubled = Doubled(src, x0, y0, w, h);
	take(ReadBarcodes(ImageView(doubled.px.data(), doubled.w, doubled.h, ImageFormat::Lum), hints), 2);
}

// One pass over an image (src), appending to acc (coordinates in src space). The image is read
// where it lies; a private copy is made only once a linear symbol has to be masked.
void DecodePass(const Source& src, const ck_options& o, uint32_t want, int maxSymbols, std::vector<Found>& acc)
{
	ImageView iv(src.data, src.w, src.h, ImageFormat::Lum, src.stride);
	size_t start = acc.size();

	BarcodeFormats mat = MatrixZX(want);
	if (!mat.empty()) {
		auto h = BaseHints(o);
		h.setFormats(mat).setMaxNumberOfSymbols(uint8_t(maxSymbols)); // matrix only: operator== never asserts
		for (auto& r : ReadBarcodes(iv, ForBlocks(h, src))) {
			Found f;
			if (r.isValid() && MapResult(r, want, f)) AddUnique(acc, std::move(f));
		}
		// Aztec codes away from the centre: again in crops centred on each bull's eye.
		if (mat.testFlag(BarcodeFormat::Aztec) && int(acc.size() - start) < maxSymbols) {
			auto ah = BaseHints(o);
			ah.setFormats(BarcodeFormat::Aztec).setMaxNumberOfSymbols(1).setTryDownscale(false);
			for (auto& [c, module] : BullsEyes(src, 8)) {
				if (int(acc.size() - start) >= maxSymbols) break;
				int half = std::min({int(45 * module), c.x, src.w - 1 - c.x, c.y, src.h - 1 - c.y});
				if (half < 8 * module) continue;
				ReadCrop(src, c.x - half, c.y - half, 2 * half + 1, 2 * half + 1, ah, module < 6, want, acc);
			}
		}
		// Data Matrix codes away from the centre: again in crops around 2-D texture.
		if (mat.testFlag(BarcodeFormat::DataMatrix) && int(acc.size() - start) < maxSymbols) {
			auto ch = BaseHints(o);
			ch.setFormats(BarcodeFormat::DataMatrix).setMaxNumberOfSymbols(1).setTryDownscale(false);
			for (const ck_rect& box : MatrixCandidates(src)) {
				if (int(acc.size() - start) >= maxSymbols) break;
				bool known = false; // a symbol read already lies in it
				for (size_t i = start; i < acc.size(); ++i) {
					const auto& c = acc[i].corners;
					int cx = (c[0].x + c[1].x + c[2].x + c[3].x) / 4, cy = (c[0].y + c[1].y + c[2].y + c[3].y) / 4;
					known = known || (cx >= box.x && cx < box.x + box.width && cy >= box.y && cy < box.y + box.height);
				}
				// doubled only when small: large boxes are mostly text or other codes, and costly
				if (!known) ReadCrop(src, box.x, box.y, box.width, box.height, ch, box.width <= 240 && box.height <= 240, want, acc);
			}
		}
	}

	BarcodeFormats lin = LinearZX(want);
	if (!lin.empty()) {
		auto h = BaseHints(o);
		h.setFormats(lin).setMaxNumberOfSymbols(1); // linear: exactly one symbol per call (assert-proof)
#if ZXING_VERSION_MAJOR >= 2
		// 2.x reads noisier linear codes than 1.4, and with them misreads an EAN/UPC whose two
		// wrong digits keep the check digit (a UPC-A under noise sigma 40 in scan-quality.py, on
		// two agreeing scan lines). Three agreeing lines drop that read and keep 2.x's gains
		// (BENCHMARKS.md, "Debian 12 and 13").
		h.setMinLineCount(3);
#endif
		Gray work;                                  // lazily made private copy for masking
		bool masked = false;
		int attempts = 0;
		while (int(acc.size() - start) < maxSymbols && attempts++ < 2 * maxSymbols + 2) {
			auto rs = ReadBarcodes(masked ? ImageView(work.px.data(), work.w, work.h, ImageFormat::Lum) : iv, h);
			if (rs.empty() || !rs.front().isValid()) break;
			const Symbol& r = rs.front();
			Found f;
			bool keep = MapResult(r, want, f);
			ck_point q[4];
			for (int i = 0; i < 4; ++i) q[i] = {r.position()[i].x, r.position()[i].y};
			// The bars as traced (zxing gives the ends of the scan lines that decoded).
			Source current = masked ? Source{work.px.data(), work.w, work.h, work.w} : src;
			Bars bars = TraceBars(current, q);
			bars.quad(f.corners);
			// EAN/UPC: refuse fragments (no quiet zones); they are masked like any read
			switch (r.format()) {
			case BarcodeFormat::EAN13: case BarcodeFormat::UPCA: keep = keep && QuietEnds(current, bars, 95, false); break;
			case BarcodeFormat::EAN8: keep = keep && QuietEnds(current, bars, 67, true); break;
			case BarcodeFormat::UPCE: keep = keep && QuietEnds(current, bars, 51, true); break;
			default: break;
			}
			size_t before = acc.size();
			if (keep) AddUnique(acc, std::move(f));
			if (keep && acc.size() == before) break; // the mask did not erase it: no progress
			if (int(acc.size() - start) >= maxSymbols) break;
			if (!masked) { work = Copy(src, false); masked = true; }
			MaskLinear(work, bars);
		}
	}
}

} // namespace

extern "C" {

void ck_options_init(ck_options* o)
{
	if (!o) return;
	std::memset(o, 0, sizeof(*o));
	o->formats = CK_FORMAT_ALL;
	o->try_harder = true;
	o->try_rotate = true;
	o->try_invert = false;
	o->try_downscale = true;
	o->binarizer = CK_BINARIZER_LOCAL_AVERAGE;
	o->max_symbols = 1;
	o->has_roi = false;
}

int ck_decode_gray(const uint8_t* data, int32_t width, int32_t height, int32_t row_stride,
                   const ck_options* opts, ck_results** out)
{
	if (!out) return CK_E_ARGUMENT;
	*out = nullptr;
	if (row_stride == 0) row_stride = width;
	if (!data || width <= 0 || height <= 0 || row_stride < width) return CK_E_ARGUMENT;
	ck_options o;
	ck_options_init(&o);
	if (opts) o = *opts;
	uint32_t want = o.formats & CK_FORMAT_ALL;
	if (want == 0) want = CK_FORMAT_ALL;
	int maxSymbols = std::clamp<int>(o.max_symbols <= 0 ? 1 : o.max_symbols, 1, 255);

	int rx = 0, ry = 0, rw = width, rh = height;
	if (o.has_roi) {
		rx = std::clamp(o.roi.x, 0, width);
		ry = std::clamp(o.roi.y, 0, height);
		rw = std::clamp(o.roi.width, 0, width - rx);
		rh = std::clamp(o.roi.height, 0, height - ry);
	}

	std::vector<Found> acc;
	try {
		if (rw > 0 && rh > 0) {
			Source roi{data + size_t(ry) * row_stride + rx, rw, rh, row_stride}; // read in place
			DecodePass(roi, o, want, maxSymbols, acc);
			if (o.try_invert && int(acc.size()) < maxSymbols) {
				Gray inverted = Copy(roi, true);
				std::vector<Found> inv;
				DecodePass(Source{inverted.px.data(), inverted.w, inverted.h, inverted.w}, o, want, maxSymbols - int(acc.size()), inv);
				for (auto& f : inv)
					if (int(acc.size()) < maxSymbols) AddUnique(acc, std::move(f));
			}
		}
	} catch (const std::bad_alloc&) {
		return CK_E_NOMEM;
	} catch (...) {
		return CK_E_INTERNAL;
	}

	// single allocation: header | items | text bytes
	size_t textBytes = 0;
	for (auto& f : acc) textBytes += f.text.size() + 1;
	size_t bytes = sizeof(ck_results) + sizeof(ck_result) * acc.size() + textBytes;
	auto* block = static_cast<unsigned char*>(std::malloc(bytes));
	if (!block) return CK_E_NOMEM;
	auto* res = reinterpret_cast<ck_results*>(block);
	auto* items = reinterpret_cast<ck_result*>(block + sizeof(ck_results));
	char* text = reinterpret_cast<char*>(items + acc.size());
	res->count = int32_t(acc.size());
	res->items = acc.empty() ? nullptr : items;
	for (size_t i = 0; i < acc.size(); ++i) {
		auto& f = acc[i];
		std::memcpy(text, f.text.data(), f.text.size());
		text[f.text.size()] = 0;
		items[i].format = f.format;
		items[i].text = text;
		items[i].text_length = int32_t(f.text.size());
		for (int k = 0; k < 4; ++k)
			items[i].corners[k] = {f.corners[k].x + rx, f.corners[k].y + ry};
		items[i].orientation = f.orientation;
		text += f.text.size() + 1;
	}
	*out = res;
	return CK_OK;
}

void ck_results_free(ck_results* r) { std::free(r); }

const char* ck_format_name(uint32_t f)
{
	switch (f) {
	case CK_FORMAT_UPCE: return "UPC-E";
	case CK_FORMAT_CODE39: return "Code39";
	case CK_FORMAT_CODE39_MOD43: return "Code39Mod43";
	case CK_FORMAT_EAN13: return "EAN-13";
	case CK_FORMAT_EAN8: return "EAN-8";
	case CK_FORMAT_CODE93: return "Code93";
	case CK_FORMAT_CODE128: return "Code128";
	case CK_FORMAT_PDF417: return "PDF417";
	case CK_FORMAT_QR: return "QR";
	case CK_FORMAT_AZTEC: return "Aztec";
	case CK_FORMAT_DATAMATRIX: return "DataMatrix";
	case CK_FORMAT_I2OF5: return "I2of5";
	case CK_FORMAT_ITF14: return "ITF14";
	}
	return "";
}

const char* ck_zxing_version(void)
{
#define CK_STR2(x) #x
#define CK_STR(x) CK_STR2(x)
	return CK_STR(ZXING_VERSION_MAJOR) "." CK_STR(ZXING_VERSION_MINOR) "." CK_STR(ZXING_VERSION_PATCH);
}

} // extern "C"
