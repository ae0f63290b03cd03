// ck_zxing_writer.cpp - the writing half of the C shim: zxing-cpp 1.4's MultiFormatWriter for the
// symbologies the reader (ck_zxing.cpp) reads, with the text prepared the way the reader
// reports it (GS1 check digits computed with zxing's GTIN::ComputeCheckDigit).
#ifndef ZX_USE_UTF8
#define ZX_USE_UTF8 1
#endif
#include "ck_zxing.h"

#include <ZXing/BarcodeFormat.h>
#include <ZXing/BitMatrix.h>
#include <ZXing/CharacterSet.h>
#include <ZXing/GTIN.h>
#include <ZXing/MultiFormatWriter.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

using namespace ZXing;

namespace {

const char* const kCode39Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%";

struct Rejected : std::invalid_argument {
	using std::invalid_argument::invalid_argument;
};

bool AllDigits(const std::string& s)
{
	return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A GS1 number of `length` digits: one digit short gets its check digit, a full one must carry it.
std::string Gs1(const std::string& s, size_t length, const char* name)
{
	if (!AllDigits(s) || (s.size() != length && s.size() != length - 1))
		throw Rejected(std::string(name) + " needs " + std::to_string(length - 1) + " or " + std::to_string(length) + " digits");
	if (s.size() == length - 1) return s + GTIN::ComputeCheckDigit(s);
	if (!GTIN::IsCheckDigitValid(s)) throw Rejected(std::string(name) + " check digit does not verify");
	return s;
}

// The UPC-A number a UPC-E symbol stands for (number system, 6 digits -> 11 digits, no check).
std::string UpcaOfUpce(const std::string& e7)
{
	const std::string d = e7.substr(1, 6);
	std::string body;
	switch (d[5]) {
	case '0': case '1': case '2': body = d.substr(0, 2) + d[5] + "0000" + d.substr(2, 3); break;
	case '3': body = d.substr(0, 3) + "00000" + d.substr(3, 2); break;
	case '4': body = d.substr(0, 4) + "00000" + d[4]; break;
	default: body = d.substr(0, 5) + "0000" + d[5]; break;
	}
	return e7[0] + body;
}

std::string Upce(std::string s)
{
	if (!AllDigits(s) || s.size() < 6 || s.size() > 8) throw Rejected("UPC-E needs 6, 7 or 8 digits");
	if (s.size() == 6) s = "0" + s;
	if (s[0] != '0' && s[0] != '1') throw Rejected("UPC-E's number system is 0 or 1");
	char check = GTIN::ComputeCheckDigit(UpcaOfUpce(s.substr(0, 7)));
	if (s.size() == 8 && s[7] != check) throw Rejected("UPC-E check digit does not verify");
	return s.substr(0, 7) + check;
}

void RequireCode39(const std::string& s)
{
	if (s.empty()) throw Rejected("Code 39 needs at least one character");
	for (char c : s)
		if (c == 0 || !std::strchr(kCode39Alphabet, c))
			throw Rejected("Code 39 carries only 0-9 A-Z - . space $ / + %");
}

char Mod43(const std::string& s)
{
	int sum = 0;
	for (char c : s) sum += int(std::strchr(kCode39Alphabet, c) - kCode39Alphabet);
	return kCode39Alphabet[sum % 43];
}

// (format for zxing, text to encode, text a reader reports)
struct Prepared {
	BarcodeFormat zx;
	std::string encode, reported;
};

Prepared Prepare(uint32_t format, const std::string& t)
{
	switch (format) {
	case CK_FORMAT_EAN13: { auto s = Gs1(t, 13, "EAN-13"); return {BarcodeFormat::EAN13, s, s}; }
	case CK_FORMAT_EAN8: { auto s = Gs1(t, 8, "EAN-8"); return {BarcodeFormat::EAN8, s, s}; }
	case CK_FORMAT_ITF14: { auto s = Gs1(t, 14, "ITF-14"); return {BarcodeFormat::ITF, s, s}; }
	case CK_FORMAT_UPCE: { auto s = Upce(t); return {BarcodeFormat::UPCE, s, s}; }
	case CK_FORMAT_CODE39: RequireCode39(t); return {BarcodeFormat::Code39, t, t};
	case CK_FORMAT_CODE39_MOD43: RequireCode39(t); return {BarcodeFormat::Code39, t + Mod43(t), t};
	case CK_FORMAT_I2OF5:
		if (!AllDigits(t) || t.size() % 2) throw Rejected("Interleaved 2 of 5 needs an even number of digits");
		return {BarcodeFormat::ITF, t, t};
	case CK_FORMAT_CODE93: return {BarcodeFormat::Code93, t, t};
	case CK_FORMAT_CODE128: return {BarcodeFormat::Code128, t, t};
	case CK_FORMAT_PDF417: return {BarcodeFormat::PDF417, t, t};
	case CK_FORMAT_QR: return {BarcodeFormat::QRCode, t, t};
	case CK_FORMAT_AZTEC: return {BarcodeFormat::Aztec, t, t};
	case CK_FORMAT_DATAMATRIX: return {BarcodeFormat::DataMatrix, t, t};
	}
	throw Rejected("not one CK_FORMAT_* bit");
}

void Say(char* message, int32_t size, const char* what)
{
	if (!message || size <= 0) return;
	std::strncpy(message, what, size_t(size) - 1);
	message[size - 1] = 0;
}

} // namespace

extern "C" {

int ck_encode(uint32_t format, const char* text, int32_t text_length, ck_symbol** out, char* message, int32_t message_size)
{
	Say(message, message_size, "");
	if (!out) return CK_E_ARGUMENT;
	*out = nullptr;
	if (!text || text_length < 0) return CK_E_ARGUMENT;
	BitMatrix matrix;
	Prepared p;
	try {
		p = Prepare(format, std::string(text, size_t(text_length)));
		if (p.encode.empty()) throw Rejected("nothing to encode");
		MultiFormatWriter writer(p.zx);
		writer.setMargin(0); // the caller draws the quiet zone
		if (std::any_of(p.encode.begin(), p.encode.end(), [](char c) { return (unsigned char)c >= 0x80; }))
			writer.setEncoding(CharacterSet::UTF8);
		matrix = writer.encode(p.encode, 0, 0); // the smallest matrix: one module per element
	} catch (const std::bad_alloc&) {
		return CK_E_NOMEM;
	} catch (const std::exception& e) { // zxing's writers throw std::invalid_argument on bad content
		Say(message, message_size, e.what());
		return CK_E_ARGUMENT;
	} catch (...) {
		return CK_E_INTERNAL;
	}
	int w = matrix.width(), h = matrix.height();
	if (w <= 0 || h <= 0) return CK_E_INTERNAL;
	// single allocation: header | modules | text
	size_t cells = size_t(w) * size_t(h);
	auto* block = static_cast<unsigned char*>(std::malloc(sizeof(ck_symbol) + cells + p.reported.size() + 1));
	if (!block) return CK_E_NOMEM;
	auto* symbol = reinterpret_cast<ck_symbol*>(block);
	auto* modules = block + sizeof(ck_symbol);
	char* reported = reinterpret_cast<char*>(modules + cells);
	for (int y = 0; y < h; ++y)
		for (int x = 0; x < w; ++x) modules[size_t(y) * w + x] = matrix.get(x, y) ? 1 : 0;
	std::memcpy(reported, p.reported.data(), p.reported.size());
	reported[p.reported.size()] = 0;
	*symbol = ck_symbol{format, w, h, modules, reported, int32_t(p.reported.size())};
	*out = symbol;
	return CK_OK;
}

void ck_symbol_free(ck_symbol* symbol) { std::free(symbol); }

} // extern "C"
