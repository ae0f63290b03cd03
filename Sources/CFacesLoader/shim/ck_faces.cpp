// ck_faces.cpp - C shim over OpenCV 4.6's cascade classifiers (Debian bookworm
// libopencv-objdetect-dev, cascades from opencv-data). See ck_faces.h.
//
// Every entry point catches everything: no C++ exception crosses the C boundary.
#include "ck_faces.h"
#include "ck_faces_impl.h"

#include <opencv2/core.hpp>
#include <opencv2/core/version.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <sys/stat.h>
#include <vector>

// alt2 over frontalface_default and lbpcascade_frontalface_improved: same speed here, the tightest
// boxes, and no false hits on the test images with the roll pass (default had two).
constexpr const char* kFrontalFile = "haarcascade_frontalface_alt2.xml";
constexpr const char* kProfileFile = "haarcascade_profileface.xml";

struct ck_face_detector {
	cv::CascadeClassifier frontal;
	cv::CascadeClassifier profile;
	bool hasProfile = false;
};

namespace {

constexpr int kMaxSide = 640;      // detection runs on at most 640 pixels along the longer side
constexpr double kScaleStep = 1.1; // pyramid step of detectMultiScale
constexpr int kFrontalNeighbours = 4;
constexpr int kProfileNeighbours = 6; // the profile cascade fires more easily on non-faces
constexpr double kRollDegrees = 30;

struct Hit {
	double cx, cy, side; // centre and side in detection-image pixels (upright frame of the face)
	double roll, yaw;
	int score;
	int priority; // lower wins on overlap at equal score: frontal upright < frontal turned < profile
	int order = 0; // found order: the last tie-break, so results do not depend on the sort
};

bool FileExists(const std::string& path)
{
	struct stat st;
	return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string Find(const std::string& dir, const char* sub, const char* name)
{
	for (const std::string& p : {dir + "/" + sub + "/" + name, dir + "/" + name})
		if (FileExists(p)) return p;
	return {};
}

// Run one cascade on `img` (already turned by `angle` degrees CCW about its centre, mirrored
// first when `mirrored`); append hits in coordinates of the unturned, unmirrored image.
void Run(cv::CascadeClassifier& cascade, const cv::Mat& img, const cv::Mat& toOriginal, bool mirrored,
         int origWidth, int minSide, int neighbours, double roll, double yaw, int priority, std::vector<Hit>& out)
{
	std::vector<cv::Rect> rects;
	std::vector<int> counts;
	cascade.detectMultiScale(img, rects, counts, kScaleStep, neighbours, 0, cv::Size(minSide, minSide));
	for (size_t i = 0; i < rects.size(); ++i) {
		const cv::Rect& r = rects[i];
		double x = r.x + r.width / 2.0, y = r.y + r.height / 2.0;
		if (!toOriginal.empty()) {
			const double* m0 = toOriginal.ptr<double>(0);
			const double* m1 = toOriginal.ptr<double>(1);
			double ox = m0[0] * x + m0[1] * y + m0[2];
			double oy = m1[0] * x + m1[1] * y + m1[2];
			x = ox, y = oy;
		}
		if (mirrored) x = origWidth - x;
		out.push_back({x, y, double(std::max(r.width, r.height)), roll, yaw, i < counts.size() ? counts[i] : neighbours, priority});
	}
}

// Cascades on `img` and, with CK_FACES_PASS_ROLL, on copies turned +-30 degrees onto a canvas
// large enough to hold the whole image (filled with its mean grey).
void RunPasses(cv::CascadeClassifier& cascade, const cv::Mat& img, bool mirrored, bool roll, int minSide, int neighbours,
               double yaw, int priority, std::vector<Hit>& out)
{
	Run(cascade, img, cv::Mat(), mirrored, img.cols, minSide, neighbours, 0, yaw, priority, out);
	if (!roll) return;
	const cv::Scalar fill = cv::mean(img);
	for (double angle : {kRollDegrees, -kRollDegrees}) {
		const double a = angle * CV_PI / 180, c = std::fabs(std::cos(a)), s = std::fabs(std::sin(a));
		const int w = int(std::ceil(img.cols * c + img.rows * s)), h = int(std::ceil(img.cols * s + img.rows * c));
		cv::Mat m = cv::getRotationMatrix2D(cv::Point2f(img.cols / 2.0f, img.rows / 2.0f), angle, 1.0);
		m.at<double>(0, 2) += (w - img.cols) / 2.0;
		m.at<double>(1, 2) += (h - img.rows) / 2.0;
		cv::Mat turned, back;
		cv::warpAffine(img, turned, m, cv::Size(w, h), cv::INTER_LINEAR, cv::BORDER_CONSTANT, fill);
		cv::invertAffineTransform(m, back);
		// getRotationMatrix2D turns counter-clockwise on screen: a face found upright there is turned
		// clockwise by `angle` in the image (positive roll); the mirror flips the sense.
		Run(cascade, turned, back, mirrored, img.cols, minSide, neighbours, mirrored ? -angle : angle, yaw, priority + 1, out);
	}
}

// Greedy merge: best score first; a hit whose centre lies inside a kept face (or vice versa) is
// the same face.
std::vector<Hit> Merge(std::vector<Hit> hits)
{
	for (size_t i = 0; i < hits.size(); ++i) hits[i].order = int(i);
	std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
		if (a.score != b.score) return a.score > b.score;
		return a.priority != b.priority ? a.priority < b.priority : a.order < b.order;
	});
	std::vector<Hit> kept;
	for (const Hit& h : hits) {
		bool same = false;
		for (const Hit& k : kept) {
			double dx = std::fabs(h.cx - k.cx), dy = std::fabs(h.cy - k.cy);
			double r = std::max(h.side, k.side) / 2;
			if (dx < r && dy < r) { same = true; break; }
		}
		if (!same) kept.push_back(h);
	}
	return kept;
}

} // namespace

extern "C" {

int ck_faces_impl_open(const char* cascade_dir, ck_face_detector** out)
{
	if (!out) return CK_FACES_E_ARGUMENT;
	*out = nullptr;
	if (!cascade_dir || !*cascade_dir) return CK_FACES_E_ARGUMENT;
	ck_face_detector* d = nullptr;
	try {
		std::string dir(cascade_dir);
		std::string frontal = Find(dir, "haarcascades", kFrontalFile);
		if (frontal.empty()) return CK_FACES_E_CASCADE;
		d = new ck_face_detector();
		if (!d->frontal.load(frontal) || d->frontal.empty()) {
			delete d;
			return CK_FACES_E_CASCADE;
		}
		std::string profile = Find(dir, "haarcascades", kProfileFile);
		try {
			d->hasProfile = !profile.empty() && d->profile.load(profile) && !d->profile.empty();
		} catch (...) {
			d->hasProfile = false; // optional: a broken profile cascade only disables the pass
		}
	} catch (const std::bad_alloc&) {
		delete d;
		return CK_FACES_E_NOMEM;
	} catch (...) {
		delete d;
		return CK_FACES_E_CASCADE; // cv::Exception from a malformed XML file
	}
	*out = d;
	return CK_FACES_OK;
}

uint32_t ck_faces_impl_passes(const ck_face_detector* d)
{
	if (!d) return 0;
	return CK_FACES_PASS_FRONTAL | CK_FACES_PASS_ROLL | (d->hasProfile ? CK_FACES_PASS_PROFILE : 0u);
}

int ck_faces_impl_detect(ck_face_detector* d, const uint8_t* gray, int32_t width, int32_t height, int32_t row_stride,
                    int32_t min_size, uint32_t passes, ck_face_results** out)
{
	if (!out) return CK_FACES_E_ARGUMENT;
	*out = nullptr;
	if (row_stride == 0) row_stride = width;
	if (!d || !gray || width <= 0 || height <= 0 || row_stride < width) return CK_FACES_E_ARGUMENT;
	if (passes == 0) passes = CK_FACES_PASS_DEFAULT;

	std::vector<Hit> faces;
	double scale = 1; // detection pixels per input pixel
	try {
		// Wraps the caller's buffer (no copy); OpenCV only reads it.
		cv::Mat input(height, width, CV_8UC1, const_cast<uint8_t*>(gray), size_t(row_stride));
		cv::Mat img;
		const int longer = std::max(width, height);
		if (longer > kMaxSide) {
			scale = double(kMaxSide) / longer;
			cv::resize(input, img, cv::Size(std::max(1, int(std::lround(width * scale))), std::max(1, int(std::lround(height * scale)))),
			           0, 0, cv::INTER_AREA);
			scale = double(img.cols) / width;
		} else {
			img = input;
		}
		cv::Mat eq;
		cv::equalizeHist(img, eq);

		const int shorter = std::min(width, height);
		const double wanted = (min_size > 0 ? min_size : shorter / 12.0) * scale;
		const int minSide = std::max(20, int(std::lround(wanted))); // 20: the cascades' window

		const bool roll = passes & CK_FACES_PASS_ROLL;
		std::vector<Hit> hits;
		if (passes & CK_FACES_PASS_FRONTAL)
			RunPasses(d->frontal, eq, false, roll, minSide, kFrontalNeighbours, 0, 0, hits);
		if ((passes & CK_FACES_PASS_PROFILE) && d->hasProfile) {
			// The cascade was trained on faces looking toward the image's left.
			RunPasses(d->profile, eq, false, roll, minSide, kProfileNeighbours, -90, 2, hits);
			cv::Mat mirrored;
			cv::flip(eq, mirrored, 1);
			RunPasses(d->profile, mirrored, true, roll, minSide, kProfileNeighbours, 90, 2, hits);
		}
		faces = Merge(std::move(hits));
	} catch (const std::bad_alloc&) {
		return CK_FACES_E_NOMEM;
	} catch (...) {
		return CK_FACES_E_INTERNAL;
	}

	// single allocation: header | items
	auto* block = static_cast<unsigned char*>(std::malloc(sizeof(ck_face_results) + sizeof(ck_face) * faces.size()));
	if (!block) return CK_FACES_E_NOMEM;
	auto* res = reinterpret_cast<ck_face_results*>(block);
	auto* items = reinterpret_cast<ck_face*>(block + sizeof(ck_face_results));
	res->count = int32_t(faces.size());
	res->items = faces.empty() ? nullptr : items;
	for (size_t i = 0; i < faces.size(); ++i) {
		const Hit& h = faces[i];
		const double side = h.side / scale;
		ck_face& f = items[i];
		f.x = h.cx / scale - side / 2;
		f.y = h.cy / scale - side / 2;
		f.width = side;
		f.height = side;
		f.has_roll = true;
		f.roll = h.roll;
		f.has_yaw = true;
		f.yaw = h.yaw;
		f.score = h.score;
	}
	*out = res;
	return CK_FACES_OK;
}

void ck_faces_impl_results_free(ck_face_results* r) { std::free(r); }

void ck_faces_impl_close(ck_face_detector* d)
{
	try {
		delete d;
	} catch (...) {
	}
}

const char* ck_faces_impl_opencv_version(void) { return CV_VERSION; }

} // extern "C"
