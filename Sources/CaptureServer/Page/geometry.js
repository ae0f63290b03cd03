// CaptureKit preview geometry: view points <-> capture device points of interest.
//
// The same math as the Swift VideoPreview (AVCaptureVideoPreviewLayer's
// captureDevicePointOfInterest(for:) and layerPointConverted(fromCaptureDevicePointOfInterest:)):
//
// - Device points run from (0,0) at the top left to (1,1) at the bottom right of the picture as
//   the sensor delivers it (unrotated landscape), whatever the orientation and mirroring.
// - The shown picture is the sensor's picture turned clockwise by the orientation's angle
//   (landscapeRight 0°, portrait 90°, landscapeLeft 180°, portraitUpsideDown 270°), then, when
//   mirrored, flipped left to right, then fitted into the view's bounds by the gravity:
//   resizeAspect (contain, centred, bars), resizeAspectFill (cover, centred, cropped) or resize
//   (stretched).
// - View points run from (0,0) at the top left of the bounds, in the view's units (CSS pixels).
//
// A plain script (no module syntax) so that it loads from file:// and in any browser; it
// defines `CaptureGeometry` on the global object (and module.exports under CommonJS).
(function (root) {
  "use strict";

  var ORIENTATIONS = {
    landscapeRight: 0,
    portrait: 90,
    landscapeLeft: 180,
    portraitUpsideDown: 270,
  };
  var GRAVITIES = ["resizeAspect", "resizeAspectFill", "resize"];

  // The clockwise turn of an orientation, in degrees (0, 90, 180 or 270).
  function rotationDegrees(orientation) {
    var degrees = ORIENTATIONS[orientation];
    if (degrees === undefined) throw new Error("unknown orientation " + orientation);
    return degrees;
  }

  // The gravity named as VideoGravity(name:) takes it: aspect/fill/resize or the case names.
  function gravityNamed(name) {
    switch (name) {
      case "aspect": case "resizeAspect": return "resizeAspect";
      case "fill": case "resizeAspectFill": return "resizeAspectFill";
      case "resize": return "resize";
      default: return null;
    }
  }

  // The picture's size as shown: the sensor's size, width and height swapped for the portrait
  // orientations.
  function turnedSize(picture, orientation) {
    var degrees = rotationDegrees(orientation);
    return degrees % 180 === 0 ? { width: picture.width, height: picture.height } : { width: picture.height, height: picture.width };
  }

  // Where the turned picture lies in the view's bounds ({width, height}, origin (0,0)) for a
  // gravity: a rect in view points, which for resizeAspectFill reaches past the bounds. As
  // PreviewGeometry.place: the axis that sets the scale keeps the view's edges exactly, the
  // other is centred.
  function pictureRect(bounds, picture, gravity, orientation) {
    var shown = turnedSize(picture, orientation);
    if (gravity === "resize" || !(shown.width > 0 && shown.height > 0)) {
      return { x: 0, y: 0, width: bounds.width, height: bounds.height };
    }
    var horizontal = bounds.width / shown.width, vertical = bounds.height / shown.height;
    var byWidth;
    if (gravity === "resizeAspect") byWidth = horizontal <= vertical;
    else if (gravity === "resizeAspectFill") byWidth = horizontal >= vertical;
    else throw new Error("unknown gravity " + gravity);
    if (byWidth) {
      var height = shown.height * horizontal;
      return { x: 0, y: bounds.height / 2 - height / 2, width: bounds.width, height: height };
    }
    var width = shown.width * vertical;
    return { x: bounds.width / 2 - width / 2, y: 0, width: width, height: bounds.height };
  }

  // A point in the turned picture (u, v in 0…1, left to right and top to bottom as shown
  // before mirroring) from a device point.
  function turn(point, degrees) {
    switch (degrees) {
      case 0: return { x: point.x, y: point.y };
      case 90: return { x: 1 - point.y, y: point.x };
      case 180: return { x: 1 - point.x, y: 1 - point.y };
      case 270: return { x: point.y, y: 1 - point.x };
    }
    throw new Error("bad rotation " + degrees);
  }

  // The device point of a point in the turned picture: the inverse of turn.
  function unturn(point, degrees) {
    switch (degrees) {
      case 0: return { x: point.x, y: point.y };
      case 90: return { x: point.y, y: 1 - point.x };
      case 180: return { x: 1 - point.x, y: 1 - point.y };
      case 270: return { x: 1 - point.y, y: point.x };
    }
    throw new Error("bad rotation " + degrees);
  }

  // The options every conversion takes: {bounds: {width, height}, picture: {width, height}
  // (the sensor's size), gravity, orientation, mirrored}.
  function check(options) {
    if (!options || !options.bounds || !options.picture) throw new Error("bounds and picture are needed");
    var gravity = gravityNamed(options.gravity || "resizeAspect");
    if (!gravity) throw new Error("unknown gravity " + options.gravity);
    return {
      bounds: options.bounds,
      picture: options.picture,
      gravity: gravity,
      orientation: options.orientation || "landscapeRight",
      mirrored: !!options.mirrored,
    };
  }

  // The device point of interest for a view point, without clamping: coordinates outside 0…1
  // mean the point is off the picture (a letterbox bar).
  function devicePointUnclamped(viewPoint, options) {
    var o = check(options);
    var rect = pictureRect(o.bounds, o.picture, o.gravity, o.orientation);
    var u = (viewPoint.x - rect.x) / rect.width, v = (viewPoint.y - rect.y) / rect.height;
    if (o.mirrored) u = 1 - u;
    return unturn({ x: u, y: v }, rotationDegrees(o.orientation));
  }

  // Whether a view point shows part of the picture: inside both the bounds and the picture's
  // rect, edges included (not on a letterbox bar, not beyond the view).
  function isInPicture(viewPoint, options) {
    var o = check(options);
    var rect = pictureRect(o.bounds, o.picture, o.gravity, o.orientation);
    var minX = Math.max(0, rect.x), maxX = Math.min(o.bounds.width, rect.x + rect.width);
    var minY = Math.max(0, rect.y), maxY = Math.min(o.bounds.height, rect.y + rect.height);
    return viewPoint.x >= minX && viewPoint.x <= maxX && viewPoint.y >= minY && viewPoint.y <= maxY;
  }

  // VideoPreview.captureDevicePointOfInterestIfVisible(for:): the device point for a view point,
  // clamped to 0…1 (the last bits of rounding), or null when the view point shows no picture.
  function captureDevicePointOfInterest(viewPoint, options) {
    if (!isInPicture(viewPoint, options)) return null;
    var p = devicePointUnclamped(viewPoint, options);
    return { x: Math.min(Math.max(p.x, 0), 1), y: Math.min(Math.max(p.y, 0), 1) };
  }

  // layerPointConverted(fromCaptureDevicePointOfInterest:): the view point showing a device point.
  function layerPoint(devicePoint, options) {
    var o = check(options);
    var rect = pictureRect(o.bounds, o.picture, o.gravity, o.orientation);
    var t = turn(devicePoint, rotationDegrees(o.orientation));
    var u = o.mirrored ? 1 - t.x : t.x;
    return { x: rect.x + u * rect.width, y: rect.y + t.y * rect.height };
  }

  // A device rect's corners ({x, y, width, height}, top left, top right, bottom right, bottom
  // left as the sensor sees them) in view points.
  function layerCorners(deviceRect, options) {
    var r = deviceRect;
    return [
      { x: r.x, y: r.y }, { x: r.x + r.width, y: r.y },
      { x: r.x + r.width, y: r.y + r.height }, { x: r.x, y: r.y + r.height },
    ].map(function (p) { return layerPoint(p, options); });
  }

  // The CSS box and transform that show a video or image element whose intrinsic picture is the
  // sensor's picture as the gravity, orientation and mirroring ask: {left, top, width, height,
  // transform} for an absolutely positioned element with object-fit: fill and transform-origin
  // at its centre.
  function elementBox(options) {
    var o = check(options);
    var rect = pictureRect(o.bounds, o.picture, o.gravity, o.orientation);
    var degrees = rotationDegrees(o.orientation);
    var width = degrees % 180 === 0 ? rect.width : rect.height;
    var height = degrees % 180 === 0 ? rect.height : rect.width;
    var cx = rect.x + rect.width / 2, cy = rect.y + rect.height / 2;
    // CSS applies the rightmost function first: turn, then mirror in the view.
    var transform = (o.mirrored ? "scaleX(-1) " : "") + "rotate(" + degrees + "deg)";
    return { left: cx - width / 2, top: cy - height / 2, width: width, height: height, transform: transform };
  }

  var api = {
    orientations: Object.keys(ORIENTATIONS),
    gravities: GRAVITIES.slice(),
    rotationDegrees: rotationDegrees,
    gravityNamed: gravityNamed,
    turnedSize: turnedSize,
    pictureRect: pictureRect,
    devicePointUnclamped: devicePointUnclamped,
    isInPicture: isInPicture,
    captureDevicePointOfInterest: captureDevicePointOfInterest,
    layerPoint: layerPoint,
    layerCorners: layerCorners,
    elementBox: elementBox,
  };
  root.CaptureGeometry = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
